import { diffFields } from '../../plan/diff.js';
import type { Change } from '../../plan/types.js';
import type { ObjectView } from '../provider.js';

export const REPLACE_REASON = "the server cannot change a rule's auth method (reference §10)";

/**
 * Pure adjustments of the engine's generic change. A binding rule's auth method is immutable
 * (400 `cannot update auth method for binding rule, create a new rule instead`, reference
 * nomad-api.md §10): such an update becomes a delete of the old rule and a create of a new one.
 */
export function refineNomad(view: ObjectView, change: Change): Change[] {
  if (view.kind !== 'NomadBindingRule' || change.action !== 'update' || !view.live || !view.desired) return [change];
  const before = view.live.fields.authMethod;
  const after = view.desired.fields.authMethod;
  if (before === undefined || before === after) return [change];
  const notes = [...change.notes, `replaces rule ${view.live.id} (auth method ${String(before)} → ${String(after)})`];
  const { id: _id, ...base } = change;
  return [
    { ...base, id: view.live.id, action: 'delete', reason: REPLACE_REASON, fields: diffFields(view.live.fields, {}), notes },
    { ...base, action: 'create', reason: REPLACE_REASON, fields: diffFields({}, view.desired.fields), notes },
  ];
}
