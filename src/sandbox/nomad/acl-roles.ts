import { byMethod, readAclObject } from './acl-table-reads.js';
import { randomUUID } from 'node:crypto';
import { deleteAclObject, storeAclObject } from './acl-table-writes.js';
import { identify, requireAclEnabled, requireManagement } from './auth.js';
import type { Reply, RequestContext } from './context.js';
import { HttpError, badRequest, invalidMethod, multierror, permissionDenied } from './errors.js';
import { hashParts } from './hash.js';
import { GoFields, JObject, decodeBody, jsonKind } from './json-decode.js';
import type { JsonOut } from './json-encode.js';
import { blockingQuery, parseQueryOptions, readHeaders, writeHeaders } from './query.js';
import type { RegionState } from './region-state.js';
import type { AclRole } from './types.js';

/*
 * ACL roles (command/agent/acl_endpoint.go ACLRoleListRequest / ACLRoleRequest / ACLRoleSpecificRequest;
 * nomad/acl_endpoint.go UpsertRoles, DeleteRolesByID, ListRoles, GetRoleByID, GetRoleByName;
 * nomad/state/state_store_acl.go; nomad/structs/acl.go ACLRole). See SPEC.md "ACL roles".
 */

const TABLE = 'acl_roles';
/** nomad/structs/acl.go ValidACLRoleName, maxACLRoleDescriptionLength. */
const VALID_NAME = /^[a-zA-Z0-9-]{1,128}$/;
const MAX_DESCRIPTION = 256;

type RoleInput = Pick<AclRole, 'ID' | 'Name' | 'Description' | 'Policies'>;

function decodeRole(raw: ReturnType<typeof decodeBody>): RoleInput {
  const f = new GoFields('ACLRole');
  const o = f.root(raw);
  const links = o.get('Policies');
  const policies: Array<{ Name: string }> = [];
  if (Array.isArray(links)) {
    for (const l of links) {
      // A null entry is a nil *ACLRolePolicyLink; Nomad would dereference it, the sandbox treats it as an empty name.
      if (l === null) policies.push({ Name: '' });
      else if (l instanceof JObject) policies.push({ Name: f.string(l, 'Name', 'Policies.Name') });
      else f.fail(`json: cannot unmarshal ${jsonKind(l)} into Go struct field ACLRole.Policies of type structs.ACLRolePolicyLink`);
    }
  } else if (links !== undefined && links !== null) {
    f.fail(`json: cannot unmarshal ${jsonKind(links)} into Go struct field ACLRole.Policies of type []*structs.ACLRolePolicyLink`);
  }
  const r = { ID: f.string(o, 'ID'), Name: f.string(o, 'Name'), Description: f.string(o, 'Description'), Policies: policies };
  f.finish();
  return r;
}

/** ACLRole.Validate: name, description length (Go len: bytes), at least one policy link. */
function validateRole(r: RoleInput): string[] {
  const errs: string[] = [];
  if (!VALID_NAME.test(r.Name)) errs.push(`invalid name '${r.Name}'`);
  if (Buffer.byteLength(r.Description, 'utf8') > MAX_DESCRIPTION) errs.push(`description longer than ${MAX_DESCRIPTION}`);
  if (r.Policies.length < 1) errs.push('at least one policy should be specified');
  return errs;
}

/** ACLRole.SetHash: Name, Description, then each linked policy name. The ID is not part of it. */
const hashRole = (r: RoleInput): string => hashParts([r.Name, r.Description, ...r.Policies.map((p) => p.Name)]);

function roleJson(r: AclRole): JsonOut {
  return {
    ID: r.ID,
    Name: r.Name,
    Description: r.Description,
    Policies: r.Policies.map((p) => ({ Name: p.Name })),
    Hash: r.Hash,
    CreateIndex: r.CreateIndex,
    ModifyIndex: r.ModifyIndex,
  };
}

const byName = (region: RegionState, name: string): AclRole | undefined => [...region.aclRoles.values()].find((r) => r.Name === name);

/**
 * Reads of roles by a caller without management: only roles linked to its token. The sandbox's client and
 * anonymous tokens link none, so they list nothing and a single read is 403; a bad token is 403 anyway.
 */
function isManagementCaller(ctx: RequestContext): boolean {
  const id = identify(ctx);
  if (id === 'invalid') throw permissionDenied();
  return id === 'management';
}

/** `GET /v1/acl/roles`: stubs sorted by ID; `?prefix=` matches the ID, not the name. */
export async function listRoles(ctx: RequestContext): Promise<Reply> {
  if (ctx.method !== 'GET') throw invalidMethod();
  const opts = parseQueryOptions(ctx.query);
  requireAclEnabled(ctx);
  const region = ctx.cluster.region(ctx.query.get('region'));
  const all = isManagementCaller(ctx);
  const prefix = ctx.query.get('prefix') ?? '';
  const r = await blockingQuery(region, opts, ctx.signal, ctx.settings.random, () => ({
    index: Math.max(1, region.tableIndex(TABLE)),
    value: all
      ? [...region.aclRoles.values()]
          .filter((x) => x.ID.startsWith(prefix))
          .sort((a, b) => (a.ID < b.ID ? -1 : 1))
          .map(roleJson)
      : [],
  }));
  return { status: 200, headers: readHeaders(r.index), json: r.value };
}

/** `PUT|POST /v1/acl/role`: create (or, with an ID in the body, update). */
export function createRole(ctx: RequestContext): Reply {
  if (ctx.method !== 'PUT' && ctx.method !== 'POST') throw invalidMethod();
  return upsert(ctx, '');
}

/** `/v1/acl/role/:id` and `GET /v1/acl/role/name/:name`, split on `/` as Nomad does. */
export async function roleByPath(ctx: RequestContext, rest: string): Promise<Reply> {
  const parts = rest.split('/');
  if (parts.length === 1) {
    const id = parts[0] as string;
    if (id === '') throw badRequest('missing ACL role ID');
    return byMethod(ctx, { read: () => read(ctx, (region) => region.aclRoles.get(id)), upsert: () => upsert(ctx, id), remove: () => remove(ctx, id) });
  }
  if (parts.length === 2) {
    if (ctx.method !== 'GET') throw invalidMethod();
    if (parts[0] !== 'name') throw badRequest('invalid URI');
    const name = parts[1] as string;
    if (name === '') throw badRequest('missing ACL role name');
    return read(ctx, (region) => byName(region, name));
  }
  throw badRequest('invalid URI');
}

const read = (ctx: RequestContext, find: (region: RegionState) => AclRole | undefined): Promise<Reply> =>
  readAclObject(ctx, {
    table: TABLE,
    authorize: () => {
      if (!isManagementCaller(ctx)) throw permissionDenied();
    },
    find,
    notFound: 'ACL role not found',
    json: roleJson,
  });

/**
 * UpsertRoles then the state store's upsertACLRoleTxn: validate; no ID → create (name taken: 400); an ID →
 * update (unknown: 400); every linked policy must exist (400), duplicates dropped keeping the first; the
 * state store then refuses a name held by another role with an uncoded error (500); an unchanged Hash
 * writes nothing. The reply is the stored role, looked up by name.
 */
function upsert(ctx: RequestContext, pathId: string): Reply {
  const input = decodeRole(decodeBody(ctx.body));
  if (pathId !== '' && pathId !== input.ID) throw badRequest('ACL role ID does not match request path');
  requireAclEnabled(ctx);
  requireManagement(ctx);
  const errs = validateRole(input);
  if (errs.length > 0) throw badRequest(`role 0 invalid: ${multierror(errs)}`);
  const region = ctx.cluster.authoritative;
  if (input.ID === '') {
    if (byName(region, input.Name)) throw badRequest(`role with name ${input.Name} already exists`);
  } else if (!region.aclRoles.has(input.ID)) {
    throw badRequest(`cannot find role ${input.ID}`);
  }
  const seen = new Set<string>();
  const policies: Array<{ Name: string }> = [];
  for (const link of input.Policies) {
    if (!region.aclPolicies.has(link.Name)) throw badRequest(`cannot find policy ${link.Name}`);
    if (!seen.has(link.Name)) policies.push({ Name: link.Name });
    seen.add(link.Name);
  }
  const role: RoleInput = { ...input, ID: input.ID || randomUUID(), Policies: policies };
  const hash = hashRole(role);
  const index = region.nextIndex();
  const sameName = byName(region, role.Name);
  if (sameName && sameName.ID !== role.ID) throw new HttpError(500, `ACL role with name ${role.Name} already exists`);
  const existing = sameName ?? region.aclRoles.get(role.ID);
  if (existing && existing.Hash === hash) return { status: 200, headers: writeHeaders(index), json: roleJson(existing) };
  const stored: AclRole = { ...role, Hash: hash, CreateIndex: existing?.CreateIndex ?? index, ModifyIndex: index };
  storeAclObject(ctx, TABLE, (r) => r.aclRoles, stored.ID, stored, index);
  return { status: 200, headers: writeHeaders(index), json: roleJson(stored) };
}

/** A missing role is the state store's uncoded `ACL role not found`, hence a 500. */
const remove = (ctx: RequestContext, id: string): Reply => deleteAclObject(ctx, TABLE, (r) => r.aclRoles, id, 'ACL role not found');
