import { ConvergeError, errorMessage, isConvergeError } from '../../diagnostics/errors.js';
import type { JsonValue } from '../../model/json.js';
import type { Change } from '../../plan/types.js';
import type { OutcomeDetail } from '../../plan/codes.js';
import type { StateRecord } from '../../state/types.js';
import type { ApplyOutcome, PlannedChange } from '../provider.js';

/** What was done, as a code with data: views/apply-result.ts words it. */
export function succeeded(p: PlannedChange, detail: OutcomeDetail): ApplyOutcome {
  return { kind: p.change.kind, name: p.change.name, action: p.change.action, status: 'succeeded', detail };
}

export function failed(p: PlannedChange, e: unknown): ApplyOutcome {
  const error = isConvergeError(e)
    ? e
    : new ConvergeError('nomad.apply-failed', `${p.change.kind}/${p.change.name}: ${errorMessage(e)}`, { source: 'internal', cause: e });
  return { kind: p.change.kind, name: p.change.name, action: p.change.action, status: 'failed', message: error.message, error };
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
