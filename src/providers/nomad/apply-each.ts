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
    // Tracked: the change's start and end are reported as they happen (ApplyContext.track).
    const run = async () => {
      try {
        return await one(p);
      } catch (e) {
        return failed(p, e);
      }
    };
    outcomes.push(await (ctx.track ? ctx.track(p, run) : run()));
  }
  return outcomes;
}
