import { addressKey } from '../model/kinds.js';
import { diffFields } from '../plan/diff.js';
import type { FieldChange } from '../plan/types.js';
import type { ObjectView } from '../providers/provider.js';
import { nomadImportRecord } from '../providers/nomad/export-record.js';
import { tfeImportRecord } from '../providers/tfe/export-record.js';
import type { StateRecord } from '../state/types.js';

export interface ImportOutcome {
  record: StateRecord;
  /** Where the manifest differs from the live object (live → manifest): the next plan shows these as an update. */
  differences: FieldChange[];
  /** Secret fields recorded from the manifest without comparing them to the live value (the server never returns one). */
  unverifiedSecrets: string[];
}

/**
 * The state record for an object found live (a plan view with `live`), built the way each provider's
 * apply builds its records, without any request. Pure.
 */
export function importRecord(view: ObjectView, all: ReadonlyMap<string, ObjectView>, now = new Date()): ImportOutcome {
  const live = view.live;
  if (!live) throw new Error(`${addressKey(view)}: importRecord needs a live object`);
  const withLive = { ...view, live };
  const record =
    view.kind === 'NomadAuthMethod' || view.kind === 'NomadBindingRule' ? nomadImportRecord(withLive, now) : tfeImportRecord(withLive, all, now);
  const differences = view.desired ? diffFields(record.applied, view.desired.fields) : [];
  return { record, differences, unverifiedSecrets: Object.keys(record.secretDigests).sort() };
}
