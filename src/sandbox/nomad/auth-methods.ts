import { byMethod, readAclObject } from './acl-table-reads.js';
import { deleteAclObject, storeAclObject } from './acl-table-writes.js';
import { requireAclEnabled, requireManagement } from './auth.js';
import { canonicalize, hashAuthMethod, merge, validate } from './auth-method-rules.js';
import { authMethodJson, authMethodStubJson, decodeAuthMethod } from './auth-method-wire.js';
import type { Reply, RequestContext } from './context.js';
import { HttpError, badRequest, invalidMethod, multierror } from './errors.js';
import { decodeBody } from './json-decode.js';
import { blockingQuery, parseQueryOptions, readHeaders, writeHeaders } from './query.js';
import { nowNs } from './times.js';
import type { AuthMethod } from './types.js';

/*
 * ACL auth methods (docs/reference/nomad-api.md §1–§8). HTTP-layer checks (method, path name, body decoding, query
 * parsing) come first, then what the RPC does: ACLs enabled?, token, then the model.
 */

const TABLE = 'acl_auth_methods';

/** `GET /v1/acl/auth-methods`: stubs, no ACL check at all (docs/reference/nomad-api.md §2). */
export async function listAuthMethods(ctx: RequestContext): Promise<Reply> {
  if (ctx.method !== 'GET') throw invalidMethod();
  const opts = parseQueryOptions(ctx.query);
  requireAclEnabled(ctx);
  const region = ctx.cluster.region(ctx.query.get('region'));
  const r = await blockingQuery(region, opts, ctx.signal, ctx.settings.random, () => ({
    // The list index is the table index, never below 1 (docs/reference/nomad-api.md §2).
    index: Math.max(1, region.tableIndex(TABLE)),
    value: [...region.authMethods.values()].sort((a, b) => (a.Name < b.Name ? -1 : a.Name > b.Name ? 1 : 0)).map(authMethodStubJson),
  }));
  return { status: 200, headers: readHeaders(r.index), json: r.value };
}

/** `PUT|POST /v1/acl/auth-method`. */
export function createAuthMethod(ctx: RequestContext): Reply {
  if (ctx.method !== 'PUT' && ctx.method !== 'POST') throw invalidMethod();
  return upsert(ctx, undefined);
}

/** `/v1/acl/auth-method/:name` (the name may contain `/`). */
export async function authMethodByName(ctx: RequestContext, name: string): Promise<Reply> {
  if (name === '') throw badRequest('missing ACL auth-method name');
  return byMethod(ctx, { read: () => read(ctx, name), upsert: () => upsert(ctx, name), remove: () => remove(ctx, name) });
}

const read = (ctx: RequestContext, name: string): Promise<Reply> =>
  readAclObject(ctx, {
    table: TABLE,
    authorize: () => requireManagement(ctx),
    find: (region) => region.authMethods.get(name),
    notFound: 'ACL auth-method not found',
    json: authMethodJson,
    htmlEscape: true,
  });

/** The upsert of docs/reference/nomad-api.md §3.1: merge, canonicalize, validate, default check, hash, apply. */
function upsert(ctx: RequestContext, pathName: string | undefined): Reply {
  const input = decodeAuthMethod(decodeBody(ctx.body));
  if (pathName !== undefined && pathName !== input.Name) throw badRequest('ACL auth-method name does not match request path');
  requireAclEnabled(ctx);
  requireManagement(ctx);
  // Writes always go to the authoritative region, whatever ?region says (the RPC overwrites it, docs/reference/nomad-api.md §3.1).
  const region = ctx.cluster.authoritative;
  const existing = region.authMethods.get(input.Name);
  const m = canonicalize(merge(input, existing));
  const errs = validate(m, ctx.settings.minTokenTtl, ctx.settings.maxTokenTtl);
  if (errs.length > 0) throw badRequest(`auth method 0 invalid: ${multierror(errs)}`);
  if (m.Default) {
    const current = [...region.authMethods.values()].find((x) => x.Default);
    if (current && current.Name !== m.Name) throw badRequest(`default method already exists: ${current.Name}`);
    loseDefaultRace(ctx, m.Name);
  }
  const hash = hashAuthMethod(m, ctx.settings.mapOrder);
  const index = region.nextIndex();
  if (existing && existing.Hash === hash) {
    // No-op: nothing written; the old object (old ModifyIndex/ModifyTime) with the new raft index (docs/reference/nomad-api.md §3.1).
    return { status: 200, headers: writeHeaders(index), json: authMethodJson(existing), htmlEscape: true };
  }
  const now = nowNs();
  const stored: AuthMethod = {
    ...m,
    Hash: hash,
    CreateTime: existing?.CreateTime ?? now,
    ModifyTime: now,
    CreateIndex: existing?.CreateIndex ?? index,
    ModifyIndex: index,
  };
  storeAclObject(ctx, TABLE, (r) => r.authMethods, stored.Name, stored, index);
  return { status: 200, headers: writeHeaders(index), json: authMethodJson(stored), htmlEscape: true };
}

/**
 * The race the RPC check cannot see: a concurrent upsert made another method the default after this one
 * passed the check, so the state store refuses it with its uncoded error, which the HTTP layer turns
 * into a 500 (nomad/state/state_store_acl_sso.go, docs/reference/nomad-api.md §4). Armed once by `raceDefaultWith`.
 */
function loseDefaultRace(ctx: RequestContext, name: string): void {
  const winner = ctx.settings.defaultRace;
  const region = ctx.cluster.authoritative;
  const other = winner === undefined ? undefined : region.authMethods.get(winner);
  if (!other || other.Name === name) return;
  ctx.settings.defaultRace = undefined;
  const index = region.nextIndex();
  const won = { ...other, Default: true };
  region.authMethods.set(other.Name, { ...won, Hash: hashAuthMethod(won, ctx.settings.mapOrder), ModifyIndex: index, ModifyTime: nowNs() });
  region.touch(TABLE, index);
  ctx.cluster.replicate();
  throw new HttpError(500, `default ACL auth method already exists: ${other.Name}`);
}

/** Delete: 200 with no body; a missing method is the FSM's unhyphenated 500 (docs/reference/nomad-api.md §8). Rules stay orphaned. */
const remove = (ctx: RequestContext, name: string): Reply => deleteAclObject(ctx, TABLE, (r) => r.authMethods, name, 'ACL auth method not found');
