import { randomUUID } from 'node:crypto';
import type { Reply, RequestContext } from './context.js';
import { HttpError, badRequest } from './errors.js';
import { writeHeaders } from './query.js';
import type { RegionState } from './region-state.js';
import { nowNs } from './times.js';
import type { Variable } from './types.js';
import type { VariableInput } from './variable-wire.js';
import { validateVariableWrite, variableJson, zeroVariable } from './variable-wire.js';
import { TABLE, conflict, queryNamespace, requireVariables, store, varKey } from './variable-store.js';

/*
 * Variable locks, 1.7.0+ (docs/reference/nomad-api.md §9 "Locks"): a lease with a TTL that the holder renews; when
 * the TTL runs out the lock stays for LockDelay, then clears (a raft write: ModifyIndex moves).
 */

const SECOND = 1e9;
export const DEFAULT_LOCK_NS = 15 * SECOND;
const MIN_TTL_NS = 10 * SECOND;
const MAX_TTL_NS = 24 * 3600 * SECOND;

/*
 * Nomad's expiry timer runs for 2 x TTL after acquire and after each renew, a grace period: the promise
 * is only that a lock does not expire before its TTL (nomad/locks.go CreateVariableLockTTLTimer,
 * RenewTTLTimer; docs/reference/nomad-api.md §9).
 */
export const ttlTimerMs = (ttlNs: number): number => (2 * ttlNs) / 1e6;

const lockClearsAt = (v: Variable): number => (v.Lock ? v.Lock.ttlEndsAt + v.Lock.LockDelay / 1e6 : Infinity);

/** Clear every lock whose TTL and delay have both passed. Run before each Variables request and from timers. */
export function sweepLocks(region: RegionState): void {
  const now = region.clock.now();
  for (const v of [...region.variables.values()]) {
    if (v.Lock && lockClearsAt(v) <= now) {
      const index = region.nextIndex();
      region.variables.set(varKey(v.Namespace, v.Path), { ...v, Lock: null, ModifyIndex: index, ModifyTime: nowNs() });
      region.touch(TABLE, index);
    }
  }
}

function scheduleSweep(region: RegionState, v: Variable): void {
  region.later(lockClearsAt(v) - region.clock.now() + 1, () => sweepLocks(region));
}

/** acquire: creates the variable if needed and replaces its Items, even with none (code-derived, docs/reference/nomad-api.md §9). */
export function acquireLock(ctx: RequestContext, path: string, input: VariableInput): Reply {
  const ttl = input.Lock?.TTL || DEFAULT_LOCK_NS;
  const delay = input.Lock?.LockDelay || DEFAULT_LOCK_NS;
  if (ttl < 0 || delay < 0) throw badRequest('Lock delay and TTL must be positive');
  if (ttl < MIN_TTL_NS || ttl > MAX_TTL_NS) throw badRequest('TTL must be between 10 seconds and 24 hours');
  const region = ctx.cluster.region(ctx.query.get('region'));
  const ns = input.Namespace || queryNamespace(ctx);
  requireVariables(ctx);
  const items = input.Items ?? {};
  validateVariableWrite(ns, path, items);
  sweepLocks(region);
  const index = region.nextIndex();
  const existing = region.variables.get(varKey(ns, path));
  if (existing?.Lock) return conflict(zeroVariable(ns, path));
  const lock = { ID: randomUUID(), TTL: ttl, LockDelay: delay, ttlEndsAt: region.clock.now() + ttlTimerMs(ttl) };
  const stored = store(region, index, ns, path, items, lock, existing);
  scheduleSweep(region, stored);
  return { status: 200, headers: writeHeaders(index), json: variableJson(stored, { items: true, lock: true }, items) };
}

/** renew: namespace only from ?namespace; 200 with metadata and no X-Nomad-Index (docs/reference/nomad-api.md §9). */
export function renewLock(ctx: RequestContext, path: string, input: VariableInput): Reply {
  const lockId = input.Lock?.ID ?? '';
  if (lockId === '') throw badRequest('missing lock information');
  const region = ctx.cluster.region(ctx.query.get('region'));
  const ns = queryNamespace(ctx);
  requireVariables(ctx);
  sweepLocks(region);
  const v = region.variables.get(varKey(ns, path));
  if (!v) throw new HttpError(404, "variable doesn't exist");
  if (!v.Lock) throw new HttpError(409, "variable doesn't hold a lock");
  // A wrong ID, or a TTL that already ran out (the lock is only waiting out its delay), cannot renew.
  if (v.Lock.ID !== lockId || v.Lock.ttlEndsAt <= region.clock.now()) throw new HttpError(409, 'attempting to modify locked variable');
  const renewed: Variable = { ...v, Lock: { ...v.Lock, ttlEndsAt: region.clock.now() + ttlTimerMs(v.Lock.TTL) } };
  region.variables.set(varKey(ns, path), renewed);
  scheduleSweep(region, renewed);
  return { status: 200, json: variableJson(renewed, { items: false, lock: true }) };
}

/** release: no Items allowed; wrong ID is a zero-valued 409; missing variable or lock a plain 500 (docs/reference/nomad-api.md §9). */
export function releaseLock(ctx: RequestContext, path: string, input: VariableInput): Reply {
  if (input.Items && Object.keys(input.Items).length > 0) throw badRequest("lock release operation doesn't take variable items");
  const lockId = input.Lock?.ID ?? '';
  if (lockId === '') throw badRequest('missing lock information');
  const region = ctx.cluster.region(ctx.query.get('region'));
  const ns = input.Namespace || queryNamespace(ctx);
  requireVariables(ctx);
  sweepLocks(region);
  const index = region.nextIndex();
  const v = region.variables.get(varKey(ns, path));
  if (!v) throw new HttpError(500, "variable doesn't exist");
  if (!v.Lock) throw new HttpError(500, "variable doesn't hold a lock");
  if (v.Lock.ID !== lockId) return conflict(zeroVariable(ns, path));
  const released = store(region, index, ns, path, v.Items, null, v);
  return { status: 200, headers: writeHeaders(index), json: variableJson(released, { items: false, lock: false }) };
}
