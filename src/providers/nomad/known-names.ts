import type { StateRecord } from '../../state/types.js';

/**
 * What converge can name of one kind at plan time: the documents of the run plus what Nomad holds, less
 * what this very plan deletes (owned, recorded, but no longer in the manifests). A kind's load gives its
 * own (`KindLoad.known`); a later kind checks the names it refers to against it.
 */
export interface Known {
  desired: ReadonlySet<string>;
  live: ReadonlySet<string>;
  deleting: ReadonlySet<string>;
}

export function knownNames(desired: readonly { name: string }[], records: readonly StateRecord[], live: ReadonlySet<string>): Known {
  const names = new Set(desired.map((d) => d.name));
  return { desired: names, live, deleting: new Set(records.map((r) => r.name).filter((n) => !names.has(n))) };
}

/** Where a referenced name stands: in the run or live (`ok`), deleted by this plan, or nowhere. */
export type Presence = 'ok' | 'deleted' | 'missing';

export function presence(known: Known, name: string): Presence {
  if (known.desired.has(name)) return 'ok';
  if (known.deleting.has(name)) return 'deleted';
  return known.live.has(name) ? 'ok' : 'missing';
}
