import type { ObjectView } from '../providers/provider.js';
import { diffFields, diffSecrets } from '../plan/diff.js';
import type { DriftItem } from '../plan/types.js';

/**
 * Drift of one owned object (a view with a state record), measured against what converge last
 * applied (`record.applied`):
 * - outside: live differs from applied → someone changed it outside converge (fields: applied → live);
 * - pending: the manifest differs from applied where live still equals applied (fields: applied → desired),
 *   or the manifest was removed;
 * - missing: the record exists, the live object does not;
 * - hidden: the provider saw a change it cannot read (a secret: the server's hash moved).
 */
export function classifyDrift(view: ObjectView): DriftItem[] {
  const { kind, name, record, live, desired } = view;
  if (!record) return [];
  const items: DriftItem[] = [];
  if (!live) {
    items.push({
      kind,
      name,
      cause: 'missing',
      fields: [],
      detail: { code: 'gone-live', recreate: desired !== undefined },
    });
    return items;
  }
  const outside = diffFields(record.applied, live.fields);
  if (outside.length > 0) {
    items.push({ kind, name, cause: 'outside', fields: outside, detail: { code: 'changed-outside' } });
  }
  if (desired) {
    // A path absent from `outside` has live == applied there, so a manifest difference on it is pending.
    const movedOutside = new Set(outside.map((f) => f.path));
    const pending = diffFields(record.applied, desired.fields).filter((f) => !movedOutside.has(f.path));
    const secrets = diffSecrets(desired.secrets, record.secretDigests).fields;
    const all = [...pending, ...secrets].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    if (all.length > 0) {
      items.push({ kind, name, cause: 'pending', fields: all, detail: { code: 'manifest-changed' } });
    }
  } else {
    items.push({ kind, name, cause: 'pending', fields: [], detail: { code: 'manifest-removed' } });
  }
  if (live.hiddenChange !== undefined) {
    items.push({ kind, name, cause: 'hidden', fields: [], detail: { code: 'hidden-change', hidden: live.hiddenChange } });
  }
  return items;
}
