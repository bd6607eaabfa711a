import { canUseVariables, identify } from './auth.js';
import type { Reply, RequestContext } from './context.js';
import { HttpError, badRequest, invalidMethod, permissionDenied } from './errors.js';
import { decodeBody } from './json-decode.js';
import { blockingQuery, parseQueryOptions, readHeaders, writeHeaders } from './query.js';
import type { Variable } from './types.js';
import { TABLE, conflict, queryNamespace, requireVariables, store, varKey } from './variable-store.js';
import { DEFAULT_LOCK_NS, acquireLock, releaseLock, renewLock, sweepLocks } from './variable-locks.js';
import { decodeVariable, validateVariableWrite, variableJson, zeroVariable } from './variable-wire.js';

/*
 * Nomad Variables (docs/reference/nomad-api.md §9). Variables are region-scoped: `?region=` picks the region's own
 * store, nothing is replicated. Namespaces are free-form labels here (no namespace objects exist).
 */

const LOCK_FLAGS = ['lock-acquire', 'lock-renew', 'lock-release'] as const;




/** `GET /v1/vars`: metadata only, prefix, namespace (`*` = all), pagination (docs/reference/nomad-api.md §9). */
export async function listVariables(ctx: RequestContext): Promise<Reply> {
  if (ctx.method !== 'GET') throw invalidMethod();
  const opts = parseQueryOptions(ctx.query);
  const region = ctx.cluster.region(ctx.query.get('region'));
  const id = identify(ctx);
  if (id === 'invalid') throw permissionDenied();
  const ns = queryNamespace(ctx);
  const prefix = ctx.query.get('prefix') ?? '';
  const perPage = Number.parseInt(ctx.query.get('per_page') ?? '', 10);
  const nextToken = ctx.query.get('next_token') ?? '';
  sweepLocks(region);
  const r = await blockingQuery(region, opts, ctx.signal, ctx.settings.random, () => {
    // Entries the caller may not list are filtered out, not refused (anonymous sees none here).
    const all = canUseVariables(id)
      ? [...region.variables.values()]
          .filter((v) => (ns === '*' || v.Namespace === ns) && v.Path.startsWith(prefix))
          .sort((a, b) => (a.Namespace === b.Namespace ? cmp(a.Path, b.Path) : cmp(a.Namespace, b.Namespace)))
      : [];
    // Tokens are `<namespace>.<path>` of the first entry of the next page (paginator with namespace + ID).
    const token = (v: Variable) => `${v.Namespace}.${v.Path}`;
    const from = nextToken ? all.filter((v) => token(v) >= nextToken) : all;
    const page = perPage > 0 ? from.slice(0, perPage) : from;
    const next = perPage > 0 ? from[perPage] : undefined;
    // The namespace=* listing does not strip Lock for non-management callers (Nomad listAllVariables).
    const showLock = id === 'management' || ns === '*';
    return {
      index: Math.max(1, region.tableIndex(TABLE)),
      value: { items: page.map((v) => variableJson(v, { items: false, lock: showLock })), next: next ? token(next) : undefined },
    };
  });
  const extra: Record<string, string> = r.value.next ? { 'X-Nomad-NextToken': r.value.next } : {};
  return { status: 200, headers: readHeaders(r.index, extra), json: r.value.items };
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** `/v1/var/:path`. A wrong method here is 400, not 405 (docs/reference/nomad-api.md §9). */
export async function variableByPath(ctx: RequestContext, path: string): Promise<Reply> {
  if (path === '') throw badRequest('missing variable path');
  switch (ctx.method) {
    case 'GET':
      return read(ctx, path);
    case 'PUT':
    case 'POST':
      return write(ctx, path);
    case 'DELETE':
      return remove(ctx, path);
    default:
      throw invalidMethod(400);
  }
}

async function read(ctx: RequestContext, path: string): Promise<Reply> {
  const opts = parseQueryOptions(ctx.query);
  const region = ctx.cluster.region(ctx.query.get('region'));
  const id = requireVariables(ctx);
  const ns = queryNamespace(ctx);
  sweepLocks(region);
  const r = await blockingQuery(region, opts, ctx.signal, ctx.settings.random, () => {
    const v = region.variables.get(varKey(ns, path));
    return { index: v ? v.ModifyIndex : Math.max(1, region.tableIndex(TABLE)), value: v };
  });
  if (!r.value) throw new HttpError(404, 'variable not found', readHeaders(r.index));
  // Lock appears only for management tokens (docs/reference/nomad-api.md §9).
  return { status: 200, headers: readHeaders(r.index), json: variableJson(r.value, { items: true, lock: id === 'management' }) };
}

/** `?cas=` (strconv.ParseUint). */
function parseCas(ctx: RequestContext): number | undefined {
  const c = ctx.query.get('cas');
  if (!c) return undefined;
  if (!/^\d+$/.test(c)) throw badRequest(`can not parse cas: strconv.ParseUint: parsing ${JSON.stringify(c)}: invalid syntax`);
  return Number(c);
}

async function write(ctx: RequestContext, path: string): Promise<Reply> {
  const flags = LOCK_FLAGS.filter((f) => ctx.query.has(f));
  if (flags.length > 1) throw badRequest('multiple lock operations');
  if (flags.length === 1 && ctx.query.get('cas')) throw badRequest("CAS can't be used with lock operations");
  const input = decodeVariable(decodeBody(ctx.body));
  switch (flags[0]) {
    case 'lock-acquire':
      return acquireLock(ctx, path, input);
    case 'lock-renew':
      return renewLock(ctx, path, input);
    case 'lock-release':
      return releaseLock(ctx, path, input);
    default:
      break;
  }
  const items = input.Items ?? {};
  if (Object.keys(items).length === 0) throw badRequest('variable missing required Items object');
  const cas = parseCas(ctx);
  const region = ctx.cluster.region(ctx.query.get('region'));
  // A body Namespace wins over ?namespace (RPC Apply; the docs say the opposite, docs/reference/nomad-api.md §9).
  const ns = input.Namespace || queryNamespace(ctx);
  const id = requireVariables(ctx);
  validateVariableWrite(ns, path, items);
  if (input.Lock && (input.Lock.TTL !== 0 || input.Lock.LockDelay !== 0)) throw badRequest('variable should not contain lock definition');
  sweepLocks(region);
  const index = region.nextIndex();
  const existing = region.variables.get(varKey(ns, path));
  if (cas !== undefined) {
    if (cas === 0 && existing) return conflict(existing);
    if (cas !== 0 && !existing) return conflict(zeroVariable(ns, path));
    if (existing && existing.ModifyIndex !== cas) return conflict(existing);
  }
  // A locked variable takes writes only from the holder, who names the lock in the body (docs/reference/nomad-api.md §9).
  const holder = !!existing?.Lock && input.Lock?.ID === existing.Lock.ID;
  if (existing?.Lock && !holder) return conflict(zeroVariable(ns, path));
  // The holder's plain write goes through VariableLock.Canonicalize: the stored lock keeps its ID and
  // timer but its TTL and LockDelay become the 15s defaults, so later renewals use 2 x 15s
  // (nomad/structs/variables.go; docs/reference/nomad-api.md §9).
  const lock = existing?.Lock ? { ...existing.Lock, TTL: DEFAULT_LOCK_NS, LockDelay: DEFAULT_LOCK_NS } : null;
  const stored = store(region, index, ns, path, items, lock, existing);
  return {
    status: 200,
    headers: writeHeaders(index),
    json: variableJson(stored, { items: true, lock: id === 'management' || holder }),
  };
}


/** DELETE: 204 with no body; CAS as in the state store; a locked variable always 409 (docs/reference/nomad-api.md §9). */
function remove(ctx: RequestContext, path: string): Reply {
  const cas = parseCas(ctx);
  const region = ctx.cluster.region(ctx.query.get('region'));
  requireVariables(ctx);
  const ns = queryNamespace(ctx);
  sweepLocks(region);
  const index = region.nextIndex();
  const existing = region.variables.get(varKey(ns, path));
  if (cas !== undefined) {
    if (cas !== 0 && !existing) return conflict(zeroVariable(ns, path));
    if (cas === 0 && existing) return conflict(existing);
    if (existing && existing.ModifyIndex !== cas) return conflict(existing);
  }
  // The handler sends no lock ID, so a held lock always refuses the delete. Release it first.
  if (existing?.Lock) return conflict(zeroVariable(ns, path));
  if (existing) {
    region.variables.delete(varKey(ns, path));
    region.touch(TABLE, index);
  }
  return { status: 204, headers: writeHeaders(index), empty: true };
}
