import { adoptions, NOTE_ADOPT_MATCHES, type Change, type Plan } from '../plan/types.js';
import { plural } from './format.js';

/*
 * Adoptions (decisions.md §9): unowned live objects that already match the manifests. They are not
 * changes (the summary and `--detailed-exitcode` ignore them), but the plan says them, because the
 * next apply records them as owned and a later removal of their document then deletes them.
 */

export function adoptionLine(plan: Pick<Plan, 'changes'>): string | undefined {
  const n = adoptions(plan).length;
  if (n === 0) return undefined;
  return `${plural(n, 'existing object')} ${n === 1 ? 'matches' : 'match'} the manifests and will be recorded as owned by the next apply (nothing is sent for ${n === 1 ? 'it' : 'them'}).`;
}

/** Notes worth a line under the object: the provider's (how a rule was matched), not the generic one the heading says. */
export function adoptionNotes(c: Change): string[] {
  return c.notes.filter((n) => n !== NOTE_ADOPT_MATCHES);
}
