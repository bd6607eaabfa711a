import { addressKey } from '../model/kinds.js';
import type { ObjectView } from '../providers/provider.js';
import { diffFields, diffSecrets } from '../plan/diff.js';
import type { DriftItem, FieldChange } from '../plan/types.js';

function paths(fields: readonly FieldChange[]): string {
  return fields.map((f) => f.path).join(', ');
}

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
  const address = addressKey(view);
  const items: DriftItem[] = [];
  if (!live) {
    items.push({
      kind,
      name,
      cause: 'missing',
      fields: [],
      message: desired
        ? `${address} is owned by converge but gone from the live service (deleted outside converge): apply will create it again`
        : `${address} is owned by converge but gone from the live service: apply will drop it from state`,
    });
    return items;
  }
  const outside = diffFields(record.applied, live.fields);
  if (outside.length > 0) {
    items.push({ kind, name, cause: 'outside', fields: outside, message: `${address} was changed outside converge: ${paths(outside)}` });
  }
  if (desired) {
    // A path absent from `outside` has live == applied there, so a manifest difference on it is pending.
    const movedOutside = new Set(outside.map((f) => f.path));
    const pending = diffFields(record.applied, desired.fields).filter((f) => !movedOutside.has(f.path));
    const secrets = diffSecrets(desired.secrets, record.secretDigests).fields;
    const all = [...pending, ...secrets].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    if (all.length > 0) {
      items.push({ kind, name, cause: 'pending', fields: all, message: `${address} has manifest changes not applied yet: ${paths(all)}` });
    }
  } else {
    items.push({ kind, name, cause: 'pending', fields: [], message: `${address} was removed from the manifests: apply will delete it` });
  }
  if (live.hiddenChange !== undefined) {
    items.push({ kind, name, cause: 'hidden', fields: [], message: `${address}: a field converge cannot read may have changed: ${live.hiddenChange}; \`converge apply --rewrite ${address}\` sends the manifest's values again and settles it` });
  }
  return items;
}
