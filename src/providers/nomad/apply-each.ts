import type { ApplyContext, ApplyOutcome, PlannedChange } from '../provider.js';
import { failed } from './outcome.js';

/** Applies changes one at a time; each failure becomes a failed outcome and independent changes go on. */
export async function applyEach(changes: readonly PlannedChange[], ctx: ApplyContext, one: (p: PlannedChange) => Promise<ApplyOutcome>): Promise<ApplyOutcome[]> {
  const outcomes: ApplyOutcome[] = [];
  for (const p of changes) {
    if (ctx.signal?.aborted) {
      outcomes.push({ kind: p.change.kind, name: p.change.name, action: p.change.action, status: 'skipped', detail: { code: 'cancelled' } });
      continue;
    }
    try {
      outcomes.push(await one(p));
    } catch (e) {
      outcomes.push(failed(p, e));
    }
  }
  return outcomes;
}
