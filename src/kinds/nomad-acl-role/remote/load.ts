import type { Diagnostic } from '../../../diagnostics/types.js';
import type { Note } from '../../../plan/codes.js';
import type { ObjectView } from '../../../providers/provider.js';
import { joinByName } from '../../../providers/nomad/join-by-name.js';
import { ofKind, type KindLoad, type NomadLoadContext, type ReplicaItem } from '../../../providers/nomad/kind-remote.js';
import { knownNames } from '../../../providers/nomad/known-names.js';
import { checkRolePolicies, unmanagedRoleLinks } from './checks.js';
import { listAclRoles } from './endpoints.js';
import { aclRoleFields, liveAclRoleFields } from './mapping.js';
import type { WireAclRole } from './wire.js';

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
 * Then the checks against the policies' load: a role's policies exist and are not deleted by this plan,
 * and a role converge does not manage linking a policy this plan deletes is warned about.
 */
export async function loadAclRoles({ session, call, loaded, ...run }: NomadLoadContext): Promise<KindLoad> {
  const { desired, records } = ofKind(run, 'NomadAclRole');
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
  const known = knownNames(desired, records, new Set(roles.map((r) => r.Name)));
  const diagnostics: Diagnostic[] = [];
  const policies = loaded('NomadAclPolicy')?.known;
  if (policies) diagnostics.push(...checkRolePolicies(desired, policies), ...unmanagedRoleLinks(roles, known, policies));
  return { views, known, diagnostics, replica: replicaItems(roles) };
}
