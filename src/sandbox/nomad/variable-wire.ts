import { badRequest } from './errors.js';
import { DurationError, formatGoDuration, parseGoDuration } from './durations.js';
import { GoFields, type JObject, type JVal } from './json-decode.js';
import type { JsonOut } from './json-encode.js';
import type { Variable } from './types.js';

/** A PUT body (docs/reference/nomad-api.md §9). Times and indexes in a body are ignored. */
export interface VariableInput {
  Namespace: string;
  Items: Record<string, string> | null;
  Lock: { ID: string; TTL: number; LockDelay: number } | null;
}

/** Lock durations: a Go duration string, ns as a number, `""` = 0 (docs/reference/nomad-api.md §9). */
function lockDuration(f: GoFields, o: JObject, name: string): number {
  const v = o.get(name);
  if (v === undefined || v === null || v === '') return 0;
  if (typeof v === 'number') return Math.trunc(v);
  if (typeof v === 'string') {
    try {
      return parseGoDuration(v);
    } catch (e) {
      if (e instanceof DurationError) f.fail(e.message);
      return 0;
    }
  }
  f.fail(`json: cannot unmarshal ${Array.isArray(v) ? 'array' : typeof v === 'boolean' ? 'bool' : 'object'} into Go struct field VariableLock.Lock.${name} of type time.Duration`);
  return 0;
}

export function decodeVariable(body: JVal): VariableInput {
  const f = new GoFields('VariableDecrypted');
  const o = f.root(body);
  const lock = f.object(o, 'Lock', 'structs.VariableLock');
  const input: VariableInput = {
    Namespace: f.string(o, 'Namespace'),
    Items: f.stringMap(o, 'Items'),
    Lock: lock ? { ID: f.string(lock, 'ID', 'Lock.ID'), TTL: lockDuration(f, lock, 'TTL'), LockDelay: lockDuration(f, lock, 'LockDelay') } : null,
  };
  f.finish();
  return input;
}

/** `^[a-zA-Z0-9-_~/]{1,128}$`, so no `.`; `nomad/` is reserved but for jobs, job templates and sentinel (docs/reference/nomad-api.md §9). */
const VALID_PATH = /^[a-zA-Z0-9\-_~/]{1,128}$/;

export function pathError(path: string): string | undefined {
  if (!VALID_PATH.test(path)) return `invalid path ${JSON.stringify(path)}`;
  const parts = path.split('/');
  if (parts[0] !== 'nomad') return undefined;
  if (parts.length === 1) {
    return '"nomad" is a reserved top-level directory path, but you may write variables to "nomad/jobs", "nomad/job-templates", or below';
  }
  if (parts[1] === 'jobs' || parts[1] === 'sentinel') return undefined;
  if (parts[1] === 'job-templates') {
    return parts.length === 3
      ? undefined
      : '"nomad/job-templates" is a reserved directory path, but you may write variables at the level below it, for example, "nomad/job-templates/template-name"';
  }
  return 'only paths at "nomad/jobs" or "nomad/job-templates" and below are valid paths';
}

export const MAX_VARIABLE_BYTES = 65536;

/** Keys plus values, in bytes, at most 64 KiB (docs/reference/nomad-api.md §9). */
export function itemsSize(items: Record<string, string>): number {
  let n = 0;
  for (const [k, v] of Object.entries(items)) n += Buffer.byteLength(k) + Buffer.byteLength(v);
  return n;
}

/** The checks every write that stores Items shares (Validate): namespace, size, path. Throws 400. */
export function validateVariableWrite(namespace: string, path: string, items: Record<string, string>): void {
  if (namespace === '*') throw badRequest('can not target wildcard ("*")namespace');
  if (itemsSize(items) > MAX_VARIABLE_BYTES) throw badRequest('variables are limited to 64KiB in total size');
  const e = pathError(path);
  if (e) throw badRequest(e);
}

export interface ShowOptions {
  items: boolean;
  lock: boolean;
}

/**
 * `{"Namespace","Path","Lock"?,"CreateIndex","CreateTime","ModifyIndex","ModifyTime","Items"?}` with Unix-ns
 * times (docs/reference/nomad-api.md §9). Lock and Items are omitempty; Lock only for callers allowed to see it.
 */
export function variableJson(v: Variable, show: ShowOptions, items: Record<string, string> = v.Items): JsonOut {
  const out: Record<string, JsonOut> = { Namespace: v.Namespace, Path: v.Path };
  if (show.lock && v.Lock) out.Lock = { ID: v.Lock.ID, TTL: formatGoDuration(v.Lock.TTL), LockDelay: formatGoDuration(v.Lock.LockDelay) };
  out.CreateIndex = v.CreateIndex;
  out.CreateTime = v.CreateTime;
  out.ModifyIndex = v.ModifyIndex;
  out.ModifyTime = v.ModifyTime;
  if (show.items && Object.keys(items).length > 0) {
    const sorted: Record<string, JsonOut> = {};
    for (const k of Object.keys(items).sort()) sorted[k] = items[k] ?? '';
    out.Items = sorted;
  }
  return out;
}

/** The "plausible zero value" Nomad sends as a conflict when it will not (or cannot) show the variable. */
export function zeroVariable(namespace: string, path: string): Variable {
  return { Namespace: namespace, Path: path, Items: {}, Lock: null, CreateIndex: 0, CreateTime: 0n, ModifyIndex: 0, ModifyTime: 0n };
}
