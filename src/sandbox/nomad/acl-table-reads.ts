import { requireAclEnabled } from './auth.js';
import type { Reply, RequestContext } from './context.js';
import { HttpError, invalidMethod } from './errors.js';
import type { JsonOut } from './json-encode.js';
import { blockingQuery, parseQueryOptions, readHeaders } from './query.js';
import type { RegionState, Table } from './region-state.js';

/*
 * The shapes every ACL table handler shares (policies, roles, auth methods, binding rules): the
 * method switch of an object's own path, and the blocking read of one object. Each table keeps what
 * differs: who may read, how the object is found, its 404 text and its JSON.
 */

/** `GET` reads, `PUT`/`POST` upsert, `DELETE` deletes; any other method is refused (command/agent/acl_endpoint.go). */
export function byMethod(ctx: RequestContext, handlers: { read: () => Promise<Reply>; upsert: () => Reply; remove: () => Reply }): Promise<Reply> | Reply {
  switch (ctx.method) {
    case 'GET':
      return handlers.read();
    case 'PUT':
    case 'POST':
      return handlers.upsert();
    case 'DELETE':
      return handlers.remove();
    default:
      throw invalidMethod();
  }
}

export interface ObjectRead<T extends { ModifyIndex: number }> {
  table: Exclude<Table, 'variables'>;
  /** The caller's right to read, checked after the ACL system is known to be on (throws when refused). */
  authorize: () => void;
  find: (region: RegionState) => T | undefined;
  /** Nomad's 404 text, e.g. `ACL role not found`. */
  notFound: string;
  json: (object: T) => JsonOut;
  htmlEscape?: boolean;
}

/**
 * One object, as a blocking query of the region asked for: its ModifyIndex when found; when missing,
 * the raw table index, which may be 0 (docs/reference/nomad-api.md §7), on a 404.
 */
export async function readAclObject<T extends { ModifyIndex: number }>(ctx: RequestContext, read: ObjectRead<T>): Promise<Reply> {
  const opts = parseQueryOptions(ctx.query);
  requireAclEnabled(ctx);
  const region = ctx.cluster.region(ctx.query.get('region'));
  read.authorize();
  const r = await blockingQuery(region, opts, ctx.signal, ctx.settings.random, () => {
    const found = read.find(region);
    return { index: found ? found.ModifyIndex : region.tableIndex(read.table), value: found };
  });
  if (!r.value) throw new HttpError(404, read.notFound, readHeaders(r.index));
  return { status: 200, headers: readHeaders(r.index), json: read.json(r.value), ...(read.htmlEscape ? { htmlEscape: true } : {}) };
}
