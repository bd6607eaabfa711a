import type { FieldChange } from './types.js';

/*
 * The sentences that explain an update, made from data in one place, so a provider that restates a
 * change (an update that becomes an upgrade) builds its reason from the same data instead of taking
 * the engine's sentence apart.
 */

export const REASON_ADOPT = 'adopt into state';
export const REASON_REWRITE = 'rewrite requested (--rewrite): every field is sent again, secrets included';

/** At most five paths, then "and N more". */
export function describePaths(paths: readonly string[]): string {
  const shown = paths.slice(0, 5).join(', ');
  return paths.length > 5 ? `${shown} and ${paths.length - 5} more` : shown;
}

/** What the update's reason is made of: the object's record and manifest, and the fields it sends. */
export interface UpdateFacts {
  /** The state record's protect flag; undefined when the object is not owned yet (an adoption). */
  recordedProtect: boolean | undefined;
  desiredProtect: boolean;
  fields: readonly FieldChange[];
}

/** "differs from the manifests: …; secret changed: …; protect changed …; adopt into state", as applicable. */
export function updateReason(facts: UpdateFacts): string {
  const owned = facts.recordedProtect !== undefined;
  const plain = facts.fields.filter((f) => !f.sensitive).map((f) => f.path);
  // Without a record every desired secret is unknown, not changed: the adoption writes it (a note says so).
  const secrets = owned ? facts.fields.filter((f) => f.sensitive).map((f) => f.path) : [];
  const reasons: string[] = [];
  if (plain.length > 0) reasons.push(`differs from the manifests: ${describePaths(plain)}`);
  if (secrets.length > 0) reasons.push(`secret changed: ${describePaths(secrets)}`);
  if (owned && facts.recordedProtect !== facts.desiredProtect) reasons.push('protect changed (recorded in state)');
  if (!owned) reasons.push(REASON_ADOPT);
  return reasons.join('; ');
}

/** A forced rewrite's reason: the request first, then whatever else changes. */
export function rewriteReason(rest: string | undefined): string {
  return rest ? `${REASON_REWRITE}; ${rest}` : REASON_REWRITE;
}
