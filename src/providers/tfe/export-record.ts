import type { StateRecord } from '../../state/types.js';
import type { ObjectView } from '../provider.js';

type LiveView = NonNullable<ObjectView['live']>;

/*
 * The state record `converge import` writes for an HCP Terraform object found live is the shape the kind's apply
 * saves, with `applied` taken from what the service holds now (each kind's remote half builds it).
 */

/** What every kind's imported record holds alike: its address, live id, `protect` from the manifest, the time. */
export function importRecordBase(view: ObjectView & { live: LiveView }, now: Date): Pick<StateRecord, 'kind' | 'name' | 'id' | 'protect' | 'updatedAt'> {
  return {
    kind: view.kind,
    name: view.name,
    id: view.live.id,
    protect: view.desired?.object.protect ?? false,
    updatedAt: now.toISOString(),
  };
}
