import type { DesiredObject } from '../../../model/desired.js';
import type { Note } from '../../../plan/codes.js';
import type { ObjectView } from '../../../providers/provider.js';
import type { CallOptions } from '../../../providers/nomad/client.js';
import { joinByName } from '../../../providers/nomad/join-by-name.js';
import type { KindLoad, ReplicaItem } from '../../../providers/nomad/kind-remote.js';
import type { NomadSession } from '../../../providers/nomad/session.js';
import type { StateRecord } from '../../../state/types.js';
import { listAclRoles } from './endpoints.js';
import { aclRoleFields, liveAclRoleFields } from './mapping.js';
import type { WireAclRole } from './wire.js';

export interface AclRoleLoad extends KindLoad {
  /** Every live role name, for binding-rule checks. */
  liveNames: Set<string>;
  /** Every live role (the list has every field): the provider warns about unmanaged roles' links from it. */
  live: WireAclRole[];
}

/** A replica copies whole roles, UUID and Hash with them: compared by ID. */
export function replicaItems(roles: readonly WireAclRole[]): ReplicaItem[] {
  return roles.map((r) => ({ key: r.ID, Hash: r.Hash }));
}

export function adoptedRoleNote(id: string): Note {
  return { code: 'adopted-role', id };
}

/**
 * ACL roles. Nomad keys a role by a server-made UUID and keeps names unique (nomad/acl_endpoint.go
 * UpsertRoles), so the state maps the document name to the UUID, and a role without a record (state
 * lost, or made outside converge) is found by its name: converge never creates a second role of that
 * name. ONE list call: the list carries every field (ACLRoleListStub has Policies and Hash), so no
 * role is read one by one; the Hash is kept in the record all the same, like the other Nomad kinds.
 */
export async function loadAclRoles(
  session: NomadSession,
  desired: DesiredObject<'NomadAclRole'>[],
  records: StateRecord[],
  call: CallOptions,
): Promise<AclRoleLoad> {
  const roles = await listAclRoles(session.client, call);
  const byId = new Map(roles.map((r) => [r.ID, r]));
  const byName = new Map(roles.map((r) => [r.Name, r]));
  const claimed = new Set(records.map((r) => r.id).filter((id) => byId.has(id)));

  const views: ObjectView[] = [];
  for (const { view, object } of joinByName('NomadAclRole', desired, records)) {
    const { name, record } = view;
    if (object) view.desired = { object, fields: aclRoleFields(object.spec), secrets: {} };
    let role: WireAclRole | undefined = record ? byId.get(record.id) : undefined;
    if (!role && object) {
      // No record, or its role is gone: a live role of this name that no other record owns is this one
      // (a create would fail `role with name <n> already exists`).
      const same = byName.get(name);
      if (same && !claimed.has(same.ID)) {
        role = same;
        claimed.add(same.ID);
        view.notes = [adoptedRoleNote(same.ID)];
      }
    }
    if (role) view.live = { id: role.ID, fields: liveAclRoleFields(role), extra: { hash: role.Hash } };
    views.push(view);
  }
  return { views, liveNames: new Set(roles.map((r) => r.Name)), live: roles, replica: replicaItems(roles) };
}
