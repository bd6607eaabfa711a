import { diffFields } from '../../plan/diff.js';
import type { Change } from '../../plan/types.js';
import type { ObjectView } from '../provider.js';

/** Why a binding-rule update is planned as delete + create (reasons are for people; apply never reads them). */
export const REPLACE_REASONS = {
  authMethod: "Nomad cannot move a binding rule to another auth method; it is replaced",
  management: "Nomad cannot turn a role or policy binding rule into a management one in place (it keeps the old bind name); it is replaced",
} as const;

/**
 * Pure adjustments of the engine's generic change: updates Nomad refuses become a delete of the old rule
 * and a create of a new one (reference nomad-api.md §10):
 * - the auth method is immutable (400 `cannot update auth method for binding rule, create a new rule instead`);
 * - a role/policy rule cannot become `management`: the server merges the empty BindName that management
 *   needs with the stored name before Validate, then refuses with `bind name should be empty`.
 */
export function refineNomad(view: ObjectView, change: Change): Change[] {
  if (view.kind !== 'NomadBindingRule' || change.action !== 'update' || !view.live || !view.desired) return [change];
  const live = view.live.fields;
  const desired = view.desired.fields;
  let reason: string;
  let note: string;
  if (live.authMethod !== undefined && live.authMethod !== desired.authMethod) {
    reason = REPLACE_REASONS.authMethod;
    note = `replaces rule ${view.live.id} (auth method ${String(live.authMethod)} → ${String(desired.authMethod)})`;
  } else if (desired.bindType === 'management' && live.bindType !== 'management') {
    reason = REPLACE_REASONS.management;
    note = `replaces rule ${view.live.id} (bind type ${String(live.bindType)} → management)`;
  } else {
    return [change];
  }
  const notes = [...change.notes, note];
  const { id: _id, ...base } = change;
  return [
    { ...base, id: view.live.id, action: 'delete', reason, fields: diffFields(view.live.fields, {}), notes },
    { ...base, action: 'create', reason, fields: diffFields({}, view.desired.fields), notes },
  ];
}
