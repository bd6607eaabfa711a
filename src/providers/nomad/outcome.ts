import type { JsonValue } from '../../model/json.js';
import type { Change } from '../../plan/types.js';
import type { OutcomeDetail } from '../../plan/codes.js';
import type { StateRecord } from '../../state/types.js';
import { failedOutcome, outcome } from '../outcome.js';
import type { ApplyOutcome, PlannedChange } from '../provider.js';

/** What was done, as a code with data: views/apply-result.ts words it. */
export function succeeded(p: PlannedChange, detail: OutcomeDetail): ApplyOutcome {
  return outcome(p, 'succeeded', detail);
}

/** A thrown error as a failed outcome (see providers/outcome.ts). */
export function failed(p: PlannedChange, e: unknown): ApplyOutcome {
  return failedOutcome(p, e, { code: 'nomad.request-failed', service: 'Nomad' });
}

/** A change that touches only `protect` (kept in state, not in Nomad) needs no request. */
export function onlyProtectChanged(change: Change): boolean {
  return change.fields.length > 0 && change.fields.every((f) => f.path === 'protect');
}

export function newRecord(
  p: PlannedChange,
  id: string,
  applied: Record<string, JsonValue>,
  secretDigests: Record<string, string>,
  hash: string,
): StateRecord {
  return {
    kind: p.change.kind,
    name: p.change.name,
    id,
    applied,
    secretDigests,
    extra: { hash },
    protect: p.view.desired?.object.protect ?? false,
    updatedAt: new Date().toISOString(),
  };
}
