import { wireJson } from '../../../providers/nomad/apply-intent.js';
import { ofKind, type NomadKindRemote } from '../../../providers/nomad/kind-remote.js';
import { applyAclRoles } from './apply.js';
import { listAclRoles } from './endpoints.js';
import { loadAclRoles, replicaItems } from './load.js';
import { aclRoleRequest, aclRoleSpecFromWire } from './mapping.js';

/**
 * NomadAclRole's remote half: a role is keyed by a server-made UUID (kept in the record and in an
 * update's intent) and found by its unique name when it has no record.
 */
export const remote = {
  provider: 'nomad',
  kind: 'NomadAclRole',
  // A role's policies must exist somewhere and outlive it (checks.ts).
  wants: (run) => (ofKind(run, 'NomadAclRole').desired.length > 0 ? ['NomadAclPolicy'] : []),
  load: loadAclRoles,
  body: (o) => ({ body: wireJson(aclRoleRequest(o.name, o.spec)) }),
  updatesById: true,
  refine(view, change) {
    if (change.action !== 'delete' || !view.live) return [change];
    // Tokens link roles by ID and policy resolution skips a missing one (nomad/structs/acl.go ACLRole.Name:
    // a rename by update "will not affect tokens"; a delete does): say so on every role delete.
    return [{ ...change, notes: [...change.notes, { code: 'role-delete-unlinks-tokens', id: view.live.id }] }];
  },
  apply: applyAclRoles,
  // One list: it carries every field, so a plan of the exported documents shows no changes.
  async export(client, result) {
    const roles = [...(await listAclRoles(client))].sort((a, b) => (a.Name < b.Name ? -1 : a.Name > b.Name ? 1 : 0));
    for (const r of roles) result.documents.push({ kind: 'NomadAclRole', name: r.Name, spec: aclRoleSpecFromWire(r) });
  },
  replica: { item: 'ACL role', noun: 'ACL role', list: async (client, call) => replicaItems(await listAclRoles(client, call)) },
} satisfies NomadKindRemote<'NomadAclRole'>;
