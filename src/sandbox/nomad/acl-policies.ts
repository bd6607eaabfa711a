import { byMethod, readAclObject } from './acl-table-reads.js';
import { deleteAclObject, storeAclObject } from './acl-table-writes.js';
import { parseAclRules } from './acl-policy-rules.js';
import { identify, requireAclEnabled, requireManagement, type Identity } from './auth.js';
import type { Reply, RequestContext } from './context.js';
import { badRequest, invalidMethod, multierror, permissionDenied } from './errors.js';
import { hashParts } from './hash.js';
import { GoFields, decodeBody } from './json-decode.js';
import type { JsonOut } from './json-encode.js';
import { blockingQuery, parseQueryOptions, readHeaders, writeHeaders } from './query.js';
import type { AclPolicy, JobAcl } from './types.js';

/*
 * ACL policies (command/agent/acl_endpoint.go ACLPoliciesRequest / ACLPolicySpecificRequest;
 * nomad/acl_endpoint.go UpsertPolicies, DeletePolicies, ListPolicies, GetPolicy; nomad/structs/acl.go
 * ACLPolicy). See SPEC.md "ACL policies".
 */

const TABLE = 'acl_policy';
/** nomad/structs/structs.go ValidPolicyName, maxPolicyDescriptionLength. */
const VALID_NAME = /^[a-zA-Z0-9-]{1,128}$/;
const MAX_DESCRIPTION = 256;

type PolicyInput = Pick<AclPolicy, 'Name' | 'Description' | 'Rules' | 'JobACL'>;

function decodePolicy(raw: ReturnType<typeof decodeBody>): PolicyInput {
  const f = new GoFields('ACLPolicy');
  const o = f.root(raw);
  const j = f.object(o, 'JobACL', '*structs.JobACL');
  const jobAcl: JobAcl | null = j
    ? {
        Namespace: f.string(j, 'Namespace', 'JobACL.Namespace'),
        JobID: f.string(j, 'JobID', 'JobACL.JobID'),
        Group: f.string(j, 'Group', 'JobACL.Group'),
        Task: f.string(j, 'Task', 'JobACL.Task'),
      }
    : null;
  const p = { Name: f.string(o, 'Name'), Description: f.string(o, 'Description'), Rules: f.string(o, 'Rules'), JobACL: jobAcl };
  f.finish();
  return p;
}

/** nomad/structs/acl.go ACLPolicy.Validate: every problem, in order, as one multierror. */
function validatePolicy(p: PolicyInput): string[] {
  const errs: string[] = [];
  if (!VALID_NAME.test(p.Name)) errs.push(`invalid name '${p.Name}'`);
  const parsed = parseAclRules(p.Rules, true);
  if (!parsed.ok) errs.push(`failed to parse rules: ${parsed.error}`);
  if (Buffer.byteLength(p.Description, 'utf8') > MAX_DESCRIPTION) errs.push(`description longer than ${MAX_DESCRIPTION}`);
  const j = p.JobACL;
  if (j) {
    if (j.JobID !== '' && j.Namespace === '') errs.push('namespace must be set to set job ID');
    if (j.Group !== '' && j.JobID === '') errs.push('job ID must be set to set group');
    if (j.Task !== '' && j.Group === '') errs.push('group must be set to set task');
  }
  return errs;
}

/** ACLPolicy.SetHash: Name, Description, Rules, then the JobACL fields when set. */
const hashPolicy = (p: PolicyInput): string =>
  hashParts([p.Name, p.Description, p.Rules, ...(p.JobACL ? [p.JobACL.Namespace, p.JobACL.JobID, p.JobACL.Group, p.JobACL.Task] : [])]);

const jobAclJson = (j: JobAcl | null): JsonOut => (j ? { Namespace: j.Namespace, JobID: j.JobID, Group: j.Group, Task: j.Task } : null);

/** The full object in go-codec field order; RulesJSON is parsed again on every read (leniently). */
function policyJson(p: AclPolicy): JsonOut {
  const parsed = parseAclRules(p.Rules, false);
  return {
    Name: p.Name,
    Description: p.Description,
    Rules: p.Rules,
    RulesJSON: parsed.ok ? parsed.policy : null,
    JobACL: jobAclJson(p.JobACL),
    Hash: p.Hash,
    CreateIndex: p.CreateIndex,
    ModifyIndex: p.ModifyIndex,
  };
}

const stubJson = (p: AclPolicy): JsonOut => ({
  Name: p.Name,
  Description: p.Description,
  JobACL: jobAclJson(p.JobACL),
  Hash: p.Hash,
  CreateIndex: p.CreateIndex,
  ModifyIndex: p.ModifyIndex,
});

/**
 * Which policies a caller may see (nomad/acl_endpoint.go getPolicyAuthorizationFunc): management all,
 * others only the policies their token carries. The anonymous token carries `anonymous`
 * (structs.AnonymousACLToken); the sandbox's client token carries no named policy. A bad token never gets here.
 */
function mayRead(id: Identity): (name: string) => boolean {
  if (id === 'management') return () => true;
  if (id === 'anonymous') return (name) => name === 'anonymous';
  return () => false;
}

function caller(ctx: RequestContext): Identity {
  const id = identify(ctx);
  if (id === 'invalid') throw permissionDenied();
  return id;
}

/** `GET /v1/acl/policies`: stubs sorted by name, `?prefix=` on the name, index floored at 1. */
export async function listPolicies(ctx: RequestContext): Promise<Reply> {
  if (ctx.method !== 'GET') throw invalidMethod();
  return list(ctx);
}

async function list(ctx: RequestContext): Promise<Reply> {
  const opts = parseQueryOptions(ctx.query);
  requireAclEnabled(ctx);
  const region = ctx.cluster.region(ctx.query.get('region'));
  const allowed = mayRead(caller(ctx));
  const prefix = ctx.query.get('prefix') ?? '';
  const r = await blockingQuery(region, opts, ctx.signal, ctx.settings.random, () => ({
    index: Math.max(1, region.tableIndex(TABLE)),
    value: [...region.aclPolicies.values()]
      .filter((p) => p.Name.startsWith(prefix) && allowed(p.Name))
      .sort((a, b) => (a.Name < b.Name ? -1 : 1))
      .map(stubJson),
  }));
  return { status: 200, headers: readHeaders(r.index), json: r.value };
}

/** `/v1/acl/policy/:name`; `self` is the caller's own policies, so a policy named `self` cannot be reached here. */
export async function policyByName(ctx: RequestContext, name: string): Promise<Reply> {
  if (name === 'self') {
    if (ctx.method !== 'GET') throw invalidMethod();
    return list(ctx);
  }
  if (name === '') throw badRequest('Missing Policy Name');
  return byMethod(ctx, { read: () => read(ctx, name), upsert: () => upsert(ctx, name), remove: () => remove(ctx, name) });
}

const read = (ctx: RequestContext, name: string): Promise<Reply> =>
  readAclObject(ctx, {
    table: TABLE,
    authorize: () => {
      // Anyone may read the policy named `anonymous` (GetPolicy).
      if (name !== 'anonymous' && !mayRead(caller(ctx))(name)) throw permissionDenied();
    },
    find: (region) => region.aclPolicies.get(name),
    notFound: 'ACL policy not found',
    json: policyJson,
  });

/**
 * Create or update by name, one raft write every time: unlike roles and auth methods there is no
 * no-op check, so even an identical upsert moves ModifyIndex (nomad/state/state_store.go UpsertACLPolicies).
 * The answer is 200 with an empty body and X-Nomad-Index.
 */
function upsert(ctx: RequestContext, pathName: string): Reply {
  const input = decodePolicy(decodeBody(ctx.body));
  if (input.Name !== pathName) throw badRequest('ACL policy name does not match request path');
  requireAclEnabled(ctx);
  requireManagement(ctx);
  const errs = validatePolicy(input);
  if (errs.length > 0) throw badRequest(`policy 0 invalid: ${multierror(errs)}`);
  const region = ctx.cluster.authoritative;
  const existing = region.aclPolicies.get(input.Name);
  const index = region.nextIndex();
  const stored = { ...input, Hash: hashPolicy(input), CreateIndex: existing?.CreateIndex ?? index, ModifyIndex: index };
  storeAclObject(ctx, TABLE, (r) => r.aclPolicies, input.Name, stored, index);
  return { status: 200, headers: writeHeaders(index), empty: true };
}

/**
 * Delete by name: 200 even when the policy is missing (DeleteAll), and roles that link it keep the dangling
 * link (nothing in DeletePolicies looks at roles). Such a role can then not be updated without dropping it.
 */
const remove = (ctx: RequestContext, name: string): Reply => deleteAclObject(ctx, TABLE, (r) => r.aclPolicies, name);
