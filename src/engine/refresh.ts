import type { ObjectView } from '../providers/provider.js';
import { diffFields } from '../plan/diff.js';
import type { Change } from '../plan/types.js';

/*
 * Refreshing a state record: what converge recorded becomes what is live, sending nothing
 * (decisions.md §18). The record's `applied` is what drift measures against, so an owned object whose
 * manifest was edited to match a live change would otherwise show drift forever.
 */

/** The manifest file of the view's document, relative to the state root, as records keep it (decisions.md §27). */
export function sourceOf(view: ObjectView): string | undefined {
  const object = view.desired?.object;
  return object?.source ?? object?.range.file;
}

/**
 * Whether the record must be rewritten to say where its document is now: another file, or a path written
 * relative to the working directory of an older run (no `rootRelative`), which the next write migrates.
 */
function sourceMoved(record: NonNullable<ObjectView['record']>, source: string | undefined): boolean {
  return source !== undefined && (source !== record.source || record.rootRelative !== true);
}

/**
 * Marks an owned object's no-op as a refresh when its record lags the live object (a field changed
 * outside converge that the manifests now match) or its document moved to another file. Any other
 * change is returned as is: a write saves a fresh record anyway.
 */
export function withRefresh(change: Change, view: ObjectView): Change {
  const { record, live } = view;
  if (change.action !== 'no-op' || change.adopt === true || !record || !live || !view.desired) return change;
  const fields = diffFields(record.applied, live.fields);
  const moved = sourceMoved(record, sourceOf(view));
  if (fields.length === 0 && !moved) return change;
  // A provider's own kind of refresh (`run`) stays: the record's fields follow the live ones all the same.
  return { ...change, refresh: change.refresh ?? (fields.length > 0 ? 'live' : 'source'), fields };
}

/**
 * `--refresh-only`: for an owned object, the record takes the live values whatever the manifests
 * say, or is dropped when the object is gone. Undefined when its record is already right (or it is
 * not owned: a refresh-only plan creates, adopts and deletes nothing).
 */
export function refreshOnlyChange(view: ObjectView): Change | undefined {
  const { kind, name, record, live } = view;
  if (!record) return undefined;
  const base = { kind, name, id: live?.id ?? record.id, action: 'no-op' as const, notes: [] };
  if (!live) return { ...base, refresh: 'gone', fields: [] };
  const fields = diffFields(record.applied, live.fields);
  if (fields.length === 0 && !sourceMoved(record, sourceOf(view))) return undefined;
  return { ...base, refresh: fields.length > 0 ? 'live' : 'source', fields };
}
