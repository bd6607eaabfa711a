import { createHash } from 'node:crypto';
import type { JsonValue } from '../model/json.js';

/**
 * Canonical JSON: object keys sorted, no whitespace, `undefined` members dropped. Two values are
 * semantically equal for the diff exactly when their canonical forms are equal (providers have
 * already normalised durations, defaults and set-like lists before the engine sees them).
 */
export function canonicalJson(value: JsonValue | undefined): string {
  if (value === undefined || value === null) return 'null';
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v)).join(',')}]`;
  if (typeof value === 'object') {
    const keys = Object.keys(value)
      .filter((k) => value[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(',')}}`;
  }
  // Numbers: JSON.stringify gives the shortest round-trip form, so 1.0 and 1 agree.
  return JSON.stringify(value);
}

export function jsonEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
