import { addressKey } from '../model/kinds.js';
import { diffFields } from '../plan/diff.js';
import type { FieldChange } from '../plan/types.js';
import type { ObjectView, Provider } from '../providers/provider.js';
import type { StateRecord } from '../state/types.js';

export interface ImportOutcome {
  record: StateRecord;
  /** Where the manifest differs from the live object (live → manifest): the next plan shows these as an update. */
  differences: FieldChange[];
  /** Secret fields recorded from the manifest without comparing them to the live value (the server never returns one). */
  unverifiedSecrets: string[];
}

/**
 * The state record for an object found live (a plan view with `live`), built by its provider's
 * `adopt` (the record an adoption writes, decisions.md §9), without any request. Pure.
 */
export function importRecord(provider: Provider, view: ObjectView, all: ReadonlyMap<string, ObjectView>, now = new Date()): ImportOutcome {
  const live = view.live;
  if (!live) throw new Error(`${addressKey(view)}: importRecord needs a live object`);
  if (!provider.adopt) throw new Error(`${addressKey(view)}: provider ${provider.id} cannot record an existing object`);
  const record = provider.adopt({ ...view, live }, all, now);
  const differences = view.desired ? diffFields(record.applied, view.desired.fields) : [];
  return { record, differences, unverifiedSecrets: Object.keys(record.secretDigests).sort() };
}
