import { addressKey, type Address } from '../model/kinds.js';

/** The part of a state record this view reads (views sit above state/ and take its records as data). */
export interface ListedRecord extends Address {
  id: string;
  protect: boolean;
  source?: string;
  updatedAt: string;
  inFlight?: { purpose: string; runId: string; phase: string };
}

/** Version of the `state list --json` document (schemas/state-list.json); a change that breaks readers raises it. */
export const STATE_LIST_FORMAT_VERSION = '1.0';

/**
 * `converge state list --json`: what the text list shows, one object per owned record. Only identity and
 * bookkeeping: never the applied values, digests or provider data a record also holds, so no secret (nor
 * its digest) can reach this output.
 */
export function renderStateListJson(location: string, records: readonly ListedRecord[]): string {
  const objects = records.map((r) => ({
    address: addressKey(r),
    kind: r.kind,
    name: r.name,
    id: r.id,
    protected: r.protect,
    ...(r.source !== undefined ? { source: r.source } : {}),
    updatedAt: r.updatedAt,
    ...(r.inFlight ? { inFlight: { purpose: r.inFlight.purpose, runId: r.inFlight.runId, phase: r.inFlight.phase } } : {}),
  }));
  return JSON.stringify({ formatVersion: STATE_LIST_FORMAT_VERSION, state: location, objects }, null, 2);
}
