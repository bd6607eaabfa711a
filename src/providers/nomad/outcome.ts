import { kindDefinition } from '../../kinds/registry.js';
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

/**
 * A change that touches only what Nomad does not hold needs no request: `protect` (kept in state), and a
 * `name` of a kind whose name is converge's own (`rename: 'state-only'` in its KindDefinition: a binding rule has
 * only an ID in Nomad, docs/reference/nomad-api.md §10), which a Moved document's rename changes.
 */
export function onlyStateChanged(change: Change): boolean {
  const local = (path: string) => path === 'protect' || (path === 'name' && kindDefinition(change.kind).rename === 'state-only');
  return change.fields.length > 0 && change.fields.every((f) => local(f.path));
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
