import { aclPolicyFields, liveAclPolicyFields } from './mapping.js';
import { joinByName, readLiveByHash } from '../../../providers/nomad/join-by-name.js';
import { ofKind, type KindLoad, type NomadLoadContext, type ReplicaItem } from '../../../providers/nomad/kind-remote.js';
import { knownNames } from '../../../providers/nomad/known-names.js';
import { listAclPolicies, readAclPolicy } from './endpoints.js';
import type { WireAclPolicyStub } from './wire.js';

/**
 * ACL policies, keyed by name like auth methods: ONE list call (stubs carry Hash but not Rules), then
 * a GET only for desired or owned policies whose Hash moved since converge's last write. The Hash
 * covers every field (nomad/structs/acl.go ACLPolicy.SetHash: name, description, rules, JobACL), so a
 * matching Hash means the fields converge last applied are the live fields. A desired policy with no
 * record but a live one of its name is adopted (the engine notes it). Its names (`known`, every live one
 * from the list) are what roles and binding rules check theirs against.
 */
export async function loadAclPolicies({ session, call, ...run }: NomadLoadContext): Promise<KindLoad> {
  const { desired, records } = ofKind(run, 'NomadAclPolicy');
  const stubs = await listAclPolicies(session.client, call);
  const views = joinByName('NomadAclPolicy', desired, records).map(({ view, object }) => {
    if (object) view.desired = { object, fields: aclPolicyFields(object.spec), secrets: {} };
    return view;
  });
  await readLiveByHash(
    views,
    stubs,
    (name) => readAclPolicy(session.client, name, call),
    (wire, view) => ({ id: view.name, fields: liveAclPolicyFields(wire), extra: { hash: wire.Hash } }),
  );
  return { views, known: knownNames(desired, records, new Set(stubs.map((s) => s.Name))), replica: replicaItems(stubs) };
}

/** A replica copies whole policies, Hash with them: compared by name. */
export function replicaItems(stubs: readonly WireAclPolicyStub[]): ReplicaItem[] {
  return stubs.map((s) => ({ key: s.Name, Hash: s.Hash }));
}
