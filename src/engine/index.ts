export { createPlan } from './create-plan.js';
export { applyPlan, type PlanRunLike } from './apply.js';
export { findStaleness } from './staleness.js';
export { toSavedPlan } from './saved-plan.js';
export {
  adoptedNote,
  genericChange,
  NOTE_ADOPT_MATCHES,
  NOTE_ALREADY_GONE,
  NOTE_SECRET_INVISIBLE,
  NOTE_SECRET_UNKNOWN,
  REASON_ADOPT,
} from './generic-change.js';
export { classifyDrift } from './drift.js';
export { dependenciesOf } from './dependencies.js';
export { compareApplyOrder, sortForApply } from './order.js';
export { fingerprint } from './fingerprint.js';
export { createApplyContext } from './apply-context.js';
export { refreshOnlyChange, sourceOf, withRefresh } from './refresh.js';
export { expandTargets, outOfScope } from './scope.js';
export type { ApplyCounts, ApplyInput, ApplyResult, ManifestFiles, PlanInput, PlanOptions, PlanRun, StaleFinding } from './types.js';
