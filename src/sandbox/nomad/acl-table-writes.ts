import { requireAclEnabled, requireManagement } from './auth.js';
import type { Reply, RequestContext } from './context.js';
import { HttpError } from './errors.js';
import { writeHeaders } from './query.js';
import type { RegionState, Table } from './region-state.js';

/*
 * The last step every replicated ACL table shares: the write lands in the authoritative region (ACL
 * writes are forwarded there, docs/reference/nomad-api.md §3.1), takes the next raft index, touches the
 * table index (waking blocking queries) and queues replication.
 */

type AclTable = Exclude<Table, 'variables'>;

/** Store one object; the caller has already taken `index` with `nextIndex()`. */
export function storeAclObject<T>(ctx: RequestContext, table: AclTable, rows: (r: RegionState) => Map<string, T>, key: string, value: T, index: number): void {
  const region = ctx.cluster.authoritative;
  rows(region).set(key, value);
  region.touch(table, index);
  ctx.cluster.replicate();
}

/**
 * A management-only delete answered 200 with no body. `missing` is the state store's uncoded error for an
 * absent key (a 500); without it a missing key is fine (policies: `DeleteAll`).
 */
export function deleteAclObject<T>(ctx: RequestContext, table: AclTable, rows: (r: RegionState) => Map<string, T>, key: string, missing?: string): Reply {
  requireAclEnabled(ctx);
  requireManagement(ctx);
  const region = ctx.cluster.authoritative;
  const index = region.nextIndex();
  if (missing !== undefined && !rows(region).has(key)) throw new HttpError(500, missing);
  rows(region).delete(key);
  region.touch(table, index);
  ctx.cluster.replicate();
  return { status: 200, headers: writeHeaders(index), empty: true };
}
