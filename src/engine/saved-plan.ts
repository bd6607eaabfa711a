import type { SavedPlan } from '../plan/types.js';
import type { PlanRun } from './types.js';

/** What `plan --out` writes: the plan plus reads, secret digests and the state it was made against. */
export function toSavedPlan(run: PlanRun, meta: { paths: string[]; targets: string[]; rewrite?: string[] }): SavedPlan {
  return {
    ...run.plan,
    saved: {
      paths: [...meta.paths],
      targets: [...meta.targets],
      ...(meta.rewrite && meta.rewrite.length > 0 ? { rewrite: [...meta.rewrite] } : {}),
      reads: run.reads,
      secretDigests: { ...run.secretDigests },
      state: { ...run.state },
    },
  };
}
