import type { DesiredObject } from '../../model/desired.js';
import type { Kind } from '../../model/kinds.js';
import type { StateRecord } from '../../state/types.js';
import { mapLimit } from '../../async/map-limit.js';
import type { LiveView, ObjectView } from '../provider.js';
import { liveFromRecord } from './hash-shortcut.js';
import { READ_CONCURRENCY } from './session.js';

/** One name's halves: the view (its record set) and the document, if any. */
export interface NamedView<K extends Kind> {
  view: ObjectView;
  object?: DesiredObject<K>;
}

/** One view per name a document or a record holds, sorted by name, each with its record. */
export function joinByName<K extends Kind>(kind: K, desired: readonly DesiredObject<K>[], records: readonly StateRecord[]): NamedView<K>[] {
  const desiredByName = new Map(desired.map((d) => [d.name, d]));
  const recordByName = new Map(records.map((r) => [r.name, r]));
  const names = [...new Set([...desiredByName.keys(), ...recordByName.keys()])].sort();
  return names.map((name) => {
    const view: ObjectView = { kind, name };
    const record = recordByName.get(name);
    if (record) view.record = record;
    const object = desiredByName.get(name);
    return object ? { view, object } : { view };
  });
}

/**
 * The live half of views keyed by name, from ONE list whose stubs carry a Hash of every user-set field:
 * a view whose recorded Hash is the live one takes its record's fields (hash-shortcut.ts); the others
 * are read one by one (bounded), and one deleted between the list and the read stays absent.
 */
export async function readLiveByHash<W>(
  views: readonly ObjectView[],
  stubs: readonly { Name: string; Hash: string }[],
  read: (name: string) => Promise<W | undefined>,
  toLive: (wire: W, view: ObjectView) => LiveView,
): Promise<void> {
  const stubByName = new Map(stubs.map((s) => [s.Name, s]));
  const toFetch: ObjectView[] = [];
  for (const view of views) {
    const stub = stubByName.get(view.name);
    if (!stub) continue;
    const known = liveFromRecord(view.name, view.record, stub.Hash);
    if (known) view.live = known;
    else toFetch.push(view);
  }
  await mapLimit(toFetch, READ_CONCURRENCY, async (view) => {
    const wire = await read(view.name);
    if (wire !== undefined) view.live = toLive(wire, view);
  });
}
