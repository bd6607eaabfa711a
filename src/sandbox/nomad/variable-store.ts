import { canUseVariables, identify, type Identity } from './auth.js';
import type { Reply, RequestContext } from './context.js';
import { permissionDenied } from './errors.js';
import { writeHeaders } from './query.js';
import type { RegionState } from './region-state.js';
import { nowNs } from './times.js';
import type { Variable } from './types.js';
import { variableJson } from './variable-wire.js';

/* Helpers shared by the Variables handlers and the lock operations (docs/reference/nomad-api.md §9). */

export const TABLE = 'variables';
export const varKey = (namespace: string, path: string): string => `${namespace}\u0000${path}`;

export const queryNamespace = (ctx: RequestContext): string => ctx.query.get('namespace') || 'default';

/** Token check of the Variables RPCs: any authentication failure or missing right is Permission denied. */
export function requireVariables(ctx: RequestContext): Identity {
  const id = identify(ctx);
  if (!canUseVariables(id)) throw permissionDenied();
  return id;
}

/** A conflict answer: 409, the body is the given variable, X-Nomad-Index its ModifyIndex (docs/reference/nomad-api.md §9). */
export function conflict(v: Variable): Reply {
  // Callers that reach here may read every path (both sandbox tokens), so Items are shown.
  return { status: 409, headers: writeHeaders(v.ModifyIndex), json: variableJson(v, { items: true, lock: true }) };
}

/** Commit a variable at `index` (CreateIndex/CreateTime kept from the existing one). */
export function store(
  region: RegionState,
  index: number,
  ns: string,
  path: string,
  items: Record<string, string>,
  lock: Variable['Lock'],
  existing: Variable | undefined,
): Variable {
  const now = nowNs();
  const v: Variable = {
    Namespace: ns,
    Path: path,
    Items: { ...items },
    Lock: lock,
    CreateIndex: existing?.CreateIndex ?? index,
    CreateTime: existing?.CreateTime ?? now,
    ModifyIndex: index,
    ModifyTime: now,
  };
  region.variables.set(varKey(ns, path), v);
  region.touch(TABLE, index);
  return v;
}
