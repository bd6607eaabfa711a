import { diffFields } from '../../../plan/diff.js';
import type { Change } from '../../../plan/types.js';
import type { Note, Reason } from '../../../plan/codes.js';
import type { ObjectView } from '../../../providers/provider.js';

/**
 * A binding rule's refine, pure: updates Nomad refuses become a delete of the old rule and a create of a
 * new one (docs/reference/nomad-api.md §10):
 * - the auth method is immutable (400 `cannot update auth method for binding rule, create a new rule instead`);
 * - a role/policy rule cannot become `management`: the server merges the empty BindName that management
 *   needs with the stored name before Validate, then refuses with `bind name should be empty`.
 */
export function refineBindingRule(view: ObjectView, change: Change): Change[] {
  if (change.action !== 'update' || !view.live || !view.desired) return [change];
  const live = view.live.fields;
  const desired = view.desired.fields;
  // Reasons are for people; apply never reads them.
  let reason: Reason;
  let note: Note;
  if (live.authMethod !== undefined && live.authMethod !== desired.authMethod) {
    reason = { code: 'replace-auth-method' };
    note = { code: 'replaces-rule', id: view.live.id, field: 'authMethod', from: String(live.authMethod), to: String(desired.authMethod) };
  } else if (desired.bindType === 'management' && live.bindType !== 'management') {
    reason = { code: 'replace-to-management' };
    note = { code: 'replaces-rule', id: view.live.id, field: 'bindType', from: String(live.bindType), to: 'management' };
  } else {
    return [change];
  }
  const notes = [...change.notes, note];
  const reasons = [reason];
  const { id: _id, ...base } = change;
  return [
    { ...base, id: view.live.id, action: 'delete', reasons, fields: diffFields(view.live.fields, {}), notes },
    { ...base, action: 'create', reasons, fields: diffFields({}, view.desired.fields), notes },
  ];
}
