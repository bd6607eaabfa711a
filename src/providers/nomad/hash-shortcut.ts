import type { StateRecord } from '../../state/types.js';
import type { LiveView } from '../provider.js';

/**
 * For objects whose list stub carries a Hash of every user-set field (auth methods and ACL policies,
 * keyed by name; binding rules, by ID): when the Hash converge recorded at its last write is the live
 * one, nothing changed since, so the fields it applied are the live fields and no GET is needed.
 * Undefined: read the object.
 */
export function liveFromRecord(id: string, record: StateRecord | undefined, stubHash: string): LiveView | undefined {
  const recorded = record?.extra.hash;
  if (!record || typeof recorded !== 'string' || recorded === '' || recorded !== stubHash) return undefined;
  return { id, fields: { ...record.applied }, extra: { hash: stubHash } };
}
