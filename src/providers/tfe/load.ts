import type { Diagnostic } from '../../diagnostics/types.js';
import { generatedNote, type AnyDesired } from '../../model/desired.js';
import type { JsonValue } from '../../model/json.js';
import type { StateRecord } from '../../state/types.js';
import { rangeOf } from './errors.js';

/*
 * What the kinds' loads (their remote halves, kind-remote.ts) share: findings at a manifest pointer, and the names
 * of a batch's documents and records. Each kind reads with as few requests as correctness allows (README "Reading").
 */

/** A document a set generated is at the set's node: the finding also names the set's item. */
function withOrigin(desired: AnyDesired, detail: string | undefined): string | undefined {
  if (desired.origin === undefined) return detail;
  const note = generatedNote(desired.name, desired.origin);
  return detail === undefined ? note : `${detail} ${note}`;
}

export function errorAt(desired: AnyDesired, pointer: string, code: string, summary: string, detail?: string): Diagnostic {
  const said = withOrigin(desired, detail);
  return { severity: 'error', code, summary, ...(said ? { detail: said } : {}), range: rangeOf(desired, pointer) };
}

export function warningAt(desired: AnyDesired, pointer: string, code: string, summary: string, detail: string): Diagnostic {
  return { severity: 'warning', code, summary, detail: withOrigin(desired, detail) ?? detail, range: rangeOf(desired, pointer) };
}

export function byName<T extends { name: string }>(items: readonly T[]): Map<string, T> {
  return new Map(items.map((i) => [i.name, i]));
}

export function namesOf(desired: readonly { name: string }[], records: readonly StateRecord[]): string[] {
  return [...new Set([...desired.map((d) => d.name), ...records.map((r) => r.name)])].sort();
}

/** A non-empty string, else undefined. */
export function textOf(v: JsonValue | undefined): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}
