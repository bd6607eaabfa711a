import type { SavedPlan } from '../plan/types.js';
import type { PlanRun } from './types.js';

/** What `plan --out` writes: the plan plus reads, secret digests and the state it was made against. */
export function toSavedPlan(run: PlanRun, meta: { paths: string[]; targets: string[]; rewrite?: string[]; adopt?: string[]; adoptAll?: boolean; allowEmpty?: boolean; refreshOnly?: boolean; destroy?: boolean; deletion?: SavedPlan['saved']['deletion'] }): SavedPlan {
  return {
    ...run.plan,
    saved: {
      paths: [...meta.paths],
      targets: [...meta.targets],
      ...(meta.rewrite && meta.rewrite.length > 0 ? { rewrite: [...meta.rewrite] } : {}),
      ...(meta.adopt && meta.adopt.length > 0 ? { adopt: [...meta.adopt] } : {}),
      ...(meta.adoptAll === true ? { adoptAll: true } : {}),
      ...(meta.allowEmpty === true ? { allowEmpty: true } : {}),
      ...(meta.refreshOnly === true ? { refreshOnly: true } : {}),
      ...(meta.destroy === true ? { destroy: true } : {}),
      ...(meta.deletion !== undefined ? { deletion: meta.deletion } : {}),
      reads: run.reads,
      secretDigests: { ...run.secretDigests },
      state: { ...run.state },
    },
  };
}
