import type { Reason } from './codes.js';
import type { FieldChange } from './types.js';

/*
 * The reasons of an update, made from data in one place, so a provider that restates a change (an
 * update that becomes an upgrade) builds its reasons from the same data. Views word them
 * (views/change-sentences.ts).
 */

/** At most five paths, then "and N more" (views and diagnostics). */
export function describePaths(paths: readonly string[]): string {
  const shown = paths.slice(0, 5).join(', ');
  return paths.length > 5 ? `${shown} and ${paths.length - 5} more` : shown;
}

/** What the update's reasons are made of: the object's record and manifest, and the fields it sends. */
export interface UpdateFacts {
  /** The state record's protect flag; undefined when the object is not owned yet (an adoption). */
  recordedProtect: boolean | undefined;
  desiredProtect: boolean;
  fields: readonly FieldChange[];
}

/** differs (paths), secret-changed (paths), protect-changed, adopt: as applicable, in that order. */
export function updateReasons(facts: UpdateFacts): Reason[] {
  const owned = facts.recordedProtect !== undefined;
  const plain = facts.fields.filter((f) => !f.sensitive).map((f) => f.path);
  // Without a record every desired secret is unknown, not changed: the adoption writes it (a note says so).
  const secrets = owned ? facts.fields.filter((f) => f.sensitive).map((f) => f.path) : [];
  const reasons: Reason[] = [];
  if (plain.length > 0) reasons.push({ code: 'differs', paths: plain });
  if (secrets.length > 0) reasons.push({ code: 'secret-changed', paths: secrets });
  if (owned && facts.recordedProtect !== facts.desiredProtect) reasons.push({ code: 'protect-changed' });
  if (!owned) reasons.push({ code: 'adopt' });
  return reasons;
}

/** A forced rewrite's reasons: the request first, then whatever else changes. */
export function rewriteReasons(rest: readonly Reason[]): Reason[] {
  return [{ code: 'rewrite' }, ...rest];
}
