import type { StateRecord } from '../../state/types.js';
import type { ObjectView } from '../provider.js';

/**
 * The state record `converge import` writes for a Nomad object found live: the same shape apply
 * saves (outcome.ts newRecord: id, `extra.hash`), but `applied` is what Nomad holds now, not the
 * manifest. That keeps the kinds' Hash shortcut honest (hash-shortcut.ts: a matching Hash makes
 * `applied` stand in for the live fields, docs/reference/nomad-api.md §1.2), so a manifest that differs
 * from live still plans an update instead of hiding it.
 */
export function nomadImportRecord(view: ObjectView & { live: NonNullable<ObjectView['live']> }, now: Date): StateRecord {
  const { live, desired } = view;
  return {
    kind: view.kind,
    name: view.name,
    id: live.id,
    applied: { ...live.fields },
    // See docs/export-import.md "Secrets": the manifest's value is recorded, unverified (§5: never readable).
    secretDigests: { ...(desired?.secrets ?? {}) },
    extra: { hash: typeof live.extra.hash === 'string' ? live.extra.hash : '' },
    protect: desired?.object.protect ?? false,
    updatedAt: now.toISOString(),
  };
}
