import type { JsonValue } from '../model/json.js';
import { canonicalJson } from './canonical.js';
import { SENSITIVE_PLACEHOLDER, type FieldChange } from './types.js';

/*
 * The one generic semantic diff. Providers hand the engine normalised field maps (same paths and
 * canonical values for desired and live); this compares them. Every loosening of equality (durations,
 * server defaults, set-like lists) lives in the providers' mapping.ts, not here.
 */

type JsonMap = Record<string, JsonValue>;

function isPlainObject(v: JsonValue | undefined): v is { [key: string]: JsonValue } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** `parent.key` for identifier-like keys, `parent["odd key"]` otherwise (claim names may be URLs). */
export function joinPath(parent: string, key: string): string {
  if (IDENTIFIER.test(key)) return parent === '' ? key : `${parent}.${key}`;
  return `${parent}[${JSON.stringify(key)}]`;
}

/**
 * A map whose entries are themselves objects (workspace `variables` by category and key, a module's
 * `variableOptions` by variable name), or an empty map. When such a map appears or disappears as a
 * whole (a create, a delete, a new category) it is still listed entry by entry: a reviewer reads one
 * line per variable instead of one JSON blob, and an empty map (`variableOptions: {}`) is no line at
 * all. An object of plain values (one variable's record, a claim mapping) stays one field.
 */
function isMapOfObjects(v: { [key: string]: JsonValue }): boolean {
  const values = Object.values(v);
  return values.length === 0 || values.some((x) => isPlainObject(x));
}

/** Absent = null at every level of a map: `{ b: null }` is the empty map, which is no field. Arrays keep their nulls. */
function withoutNulls(v: JsonValue): JsonValue {
  if (!isPlainObject(v)) return v;
  const out: { [key: string]: JsonValue } = {};
  for (const [k, x] of Object.entries(v)) if (x !== null) out[k] = withoutNulls(x);
  return out;
}

function collect(path: string, before: JsonValue | undefined, after: JsonValue | undefined, out: FieldChange[]): void {
  // Nested maps (claimMappings, extraHeaders) are compared key by key so a reviewer sees which key moved.
  // Arrays are leaves: providers sort set-like lists, order-significant lists must show as a whole.
  const b0 = withoutNulls(before ?? null);
  const a0 = withoutNulls(after ?? null);
  const descend =
    (isPlainObject(b0) && isPlainObject(a0)) || (isPlainObject(b0) && a0 === null && isMapOfObjects(b0)) || (b0 === null && isPlainObject(a0) && isMapOfObjects(a0));
  if (descend) {
    const bm = isPlainObject(b0) ? b0 : {};
    const am = isPlainObject(a0) ? a0 : {};
    const keys = new Set([...Object.keys(bm), ...Object.keys(am)]);
    for (const k of keys) collect(joinPath(path, k), bm[k], am[k], out);
    return;
  }
  if (canonicalJson(b0) === canonicalJson(a0)) return;
  out.push({ path, before: b0, after: a0, sensitive: false });
}

function comparePaths(a: FieldChange, b: FieldChange): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

/**
 * Field-level changes turning `before` into `after`. Absent and `null` are the same thing; values
 * are compared by canonical JSON; nested objects are descended into; the result is sorted by path.
 */
export function diffFields(before: JsonMap, after: JsonMap): FieldChange[] {
  const out: FieldChange[] = [];
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  for (const k of keys) collect(k, before[k], after[k], out);
  return out.sort(comparePaths);
}

export interface SecretDiff {
  fields: FieldChange[];
  /** Paths whose current value converge has never seen (no state record): they will be written. */
  unknown: string[];
}

/**
 * Sensitive fields: desired digests vs the digests recorded at the last apply. Values are never
 * compared or shown: a changed digest is a change whose before/after are SENSITIVE_PLACEHOLDER.
 * `recorded` undefined means no state record (an adopted object): every desired secret is written.
 */
export function diffSecrets(desired: Record<string, string>, recorded: Record<string, string> | undefined): SecretDiff {
  const fields: FieldChange[] = [];
  const unknown: string[] = [];
  const paths = new Set([...Object.keys(desired), ...Object.keys(recorded ?? {})]);
  for (const path of paths) {
    const want = desired[path];
    const had = recorded?.[path];
    if (want !== undefined && recorded === undefined) {
      unknown.push(path);
      fields.push({ path, before: SENSITIVE_PLACEHOLDER, after: SENSITIVE_PLACEHOLDER, sensitive: true });
    } else if (want !== undefined && had === undefined) {
      fields.push({ path, before: null, after: SENSITIVE_PLACEHOLDER, sensitive: true });
    } else if (want === undefined && had !== undefined) {
      fields.push({ path, before: SENSITIVE_PLACEHOLDER, after: null, sensitive: true });
    } else if (want !== had) {
      fields.push({ path, before: SENSITIVE_PLACEHOLDER, after: SENSITIVE_PLACEHOLDER, sensitive: true });
    }
  }
  return { fields: fields.sort(comparePaths), unknown: unknown.sort() };
}

/** Merge field lists (plain and sensitive) into one list sorted by path. */
export function mergeFieldChanges(...lists: FieldChange[][]): FieldChange[] {
  return lists.flat().sort(comparePaths);
}
