import { byMethod, readAclObject } from './acl-table-reads.js';
import { randomUUID } from 'node:crypto';
import { deleteAclObject, storeAclObject } from './acl-table-writes.js';
import { requireAclEnabled, requireManagement } from './auth.js';
import { SelectorError, checkSelector } from './bexpr.js';
import type { Reply, RequestContext } from './context.js';
import { badRequest, invalidMethod, multierror } from './errors.js';
import { hashParts } from './hash.js';
import { GoFields, decodeBody } from './json-decode.js';
import type { JsonOut } from './json-encode.js';
import { blockingQuery, parseQueryOptions, readHeaders, writeHeaders } from './query.js';
import { nowNs, rfc3339Nano } from './times.js';
import type { BindingRule } from './types.js';

/*
 * ACL binding rules (docs/reference/nomad-api.md §10). Bind names are not checked against roles or policies:
 * the sandbox has none (see SPEC.md).
 */

const TABLE = 'acl_binding_rules';
const MAX_DESCRIPTION = 256;

type RuleInput = Pick<BindingRule, 'ID' | 'Description' | 'AuthMethod' | 'Selector' | 'BindType' | 'BindName'>;

function decodeRule(body: ReturnType<typeof decodeBody>): RuleInput {
  const f = new GoFields('ACLBindingRule');
  const o = f.root(body);
  const r: RuleInput = {
    ID: f.string(o, 'ID'),
    Description: f.string(o, 'Description'),
    AuthMethod: f.string(o, 'AuthMethod'),
    Selector: f.string(o, 'Selector'),
    BindType: f.string(o, 'BindType'),
    BindName: f.string(o, 'BindName'),
  };
  f.finish();
  return r;
}

export function ruleJson(r: BindingRule): JsonOut {
  return {
    ID: r.ID,
    Description: r.Description,
    AuthMethod: r.AuthMethod,
    Selector: r.Selector,
    BindType: r.BindType,
    BindName: r.BindName,
    Hash: r.Hash,
    CreateTime: rfc3339Nano(r.CreateTime),
    ModifyTime: rfc3339Nano(r.ModifyTime),
    CreateIndex: r.CreateIndex,
    ModifyIndex: r.ModifyIndex,
  };
}

const stubJson = (r: BindingRule): JsonOut => ({
  ID: r.ID,
  Description: r.Description,
  AuthMethod: r.AuthMethod,
  Hash: r.Hash,
  CreateIndex: r.CreateIndex,
  ModifyIndex: r.ModifyIndex,
});

/** S ACLBindingRule.Validate, in order. */
function validateRule(r: RuleInput): string[] {
  const errs: string[] = [];
  if (r.AuthMethod === '') errs.push('auth method is missing');
  // Go len(): bytes of the UTF-8 text, not characters (nomad/structs/acl.go ACLBindingRule.Validate).
  if (Buffer.byteLength(r.Description, 'utf8') > MAX_DESCRIPTION) errs.push(`description longer than ${MAX_DESCRIPTION}`);
  switch (r.BindType) {
    case '':
      errs.push('bind type is missing');
      break;
    case 'role':
    case 'policy':
      if (r.BindName === '') errs.push('bind name is missing');
      break;
    case 'management':
      if (r.BindName !== '') errs.push('bind name should be empty');
      break;
    default:
      errs.push(`unsupported bind type: ${JSON.stringify(r.BindType)}`);
  }
  if (r.Selector !== '') {
    try {
      checkSelector(r.Selector);
    } catch (e) {
      if (!(e instanceof SelectorError)) throw e;
      errs.push(`selector is invalid: ${e.message}`);
    }
  }
  return errs;
}

const hashRule = (r: RuleInput): string => hashParts([r.ID, r.Description, r.AuthMethod, r.Selector, r.BindType, r.BindName]);

/** `GET /v1/acl/binding-rules`: unlike the auth-method list, management only (docs/reference/nomad-api.md §10). */
export async function listBindingRules(ctx: RequestContext): Promise<Reply> {
  if (ctx.method !== 'GET') throw invalidMethod();
  const opts = parseQueryOptions(ctx.query);
  requireAclEnabled(ctx);
  const region = ctx.cluster.region(ctx.query.get('region'));
  requireManagement(ctx);
  const r = await blockingQuery(region, opts, ctx.signal, ctx.settings.random, () => ({
    index: Math.max(1, region.tableIndex(TABLE)),
    value: [...region.bindingRules.values()].sort((a, b) => (a.ID < b.ID ? -1 : 1)).map(stubJson),
  }));
  return { status: 200, headers: readHeaders(r.index), json: r.value };
}

/** `PUT|POST /v1/acl/binding-rule`. */
export function createBindingRule(ctx: RequestContext): Reply {
  if (ctx.method !== 'PUT' && ctx.method !== 'POST') throw invalidMethod();
  return upsert(ctx, '');
}

/** `/v1/acl/binding-rule/:id`. */
export async function bindingRuleById(ctx: RequestContext, id: string): Promise<Reply> {
  if (id === '') throw badRequest('missing ACL binding rule ID');
  return byMethod(ctx, { read: () => read(ctx, id), upsert: () => upsert(ctx, id), remove: () => remove(ctx, id) });
}

const read = (ctx: RequestContext, id: string): Promise<Reply> =>
  readAclObject(ctx, {
    table: TABLE,
    authorize: () => requireManagement(ctx),
    find: (region) => region.bindingRules.get(id),
    notFound: 'ACL binding rule not found',
    json: ruleJson,
  });

/** R UpsertBindingRules: find (update), merge, immutable method, validate, method exists, canonicalize, hash. */
function upsert(ctx: RequestContext, pathId: string): Reply {
  let input = decodeRule(decodeBody(ctx.body));
  if (pathId !== '' && input.ID === '') input = { ...input, ID: pathId };
  if (pathId !== '' && pathId !== input.ID) throw badRequest('ACL binding rule ID does not match request path');
  requireAclEnabled(ctx);
  requireManagement(ctx);
  const region = ctx.cluster.authoritative;
  let existing: BindingRule | undefined;
  if (input.ID !== '') {
    existing = region.bindingRules.get(input.ID);
    if (!existing) throw badRequest(`cannot find binding rule ${input.ID}`);
    // Only these three are merged; an omitted Description or Selector is cleared (docs/reference/nomad-api.md §10).
    input = {
      ...input,
      BindName: input.BindName || existing.BindName,
      BindType: input.BindType || existing.BindType,
      AuthMethod: input.AuthMethod || existing.AuthMethod,
    };
    if (input.AuthMethod !== existing.AuthMethod) {
      throw badRequest('cannot update auth method for binding rule, create a new rule instead');
    }
  }
  const errs = validateRule(input);
  if (errs.length > 0) throw badRequest(`binding rule 0 invalid: ${multierror(errs)}`);
  if (!region.authMethods.has(input.AuthMethod)) throw badRequest(`ACL auth method ${input.AuthMethod} not found`);
  const rule: RuleInput = { ...input, ID: input.ID || randomUUID() };
  const hash = hashRule(rule);
  const index = region.nextIndex();
  if (existing && existing.Hash === hash) {
    return { status: 200, headers: writeHeaders(index), json: ruleJson(existing) };
  }
  const now = nowNs();
  const stored: BindingRule = {
    ...rule,
    Hash: hash,
    CreateTime: existing?.CreateTime ?? now,
    ModifyTime: now,
    CreateIndex: existing?.CreateIndex ?? index,
    ModifyIndex: index,
  };
  storeAclObject(ctx, TABLE, (r) => r.bindingRules, stored.ID, stored, index);
  return { status: 200, headers: writeHeaders(index), json: ruleJson(stored) };
}

/** A missing rule is the state store's plain error, hence 500 (docs/reference/nomad-api.md §10). */
const remove = (ctx: RequestContext, id: string): Reply => deleteAclObject(ctx, TABLE, (r) => r.bindingRules, id, 'ACL binding rule not found');
