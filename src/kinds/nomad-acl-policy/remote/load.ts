import type { DesiredObject } from '../../../model/desired.js';
import type { StateRecord } from '../../../state/types.js';
import { aclPolicyFields, liveAclPolicyFields } from './mapping.js';
import type { CallOptions } from '../../../providers/nomad/client.js';
import { joinByName, readLiveByHash } from '../../../providers/nomad/join-by-name.js';
import type { KindLoad, ReplicaItem } from '../../../providers/nomad/kind-remote.js';
import type { NomadSession } from '../../../providers/nomad/session.js';
import { listAclPolicies, readAclPolicy } from './endpoints.js';
import type { WireAclPolicyStub } from './wire.js';

export interface AclPolicyLoad extends KindLoad {
  /** Every live policy name (from the one list call), for role and binding-rule checks. */
  liveNames: Set<string>;
  stubs: WireAclPolicyStub[];
}

/**
 * ACL policies, keyed by name like auth methods: ONE list call (stubs carry Hash but not Rules), then
 * a GET only for desired or owned policies whose Hash moved since converge's last write. The Hash
 * covers every field (nomad/structs/acl.go ACLPolicy.SetHash: name, description, rules, JobACL), so a
 * matching Hash means the fields converge last applied are the live fields. A desired policy with no
 * record but a live one of its name is adopted (the engine notes it).
 */
export async function loadAclPolicies(
  session: NomadSession,
  desired: DesiredObject<'NomadAclPolicy'>[],
  records: StateRecord[],
  call: CallOptions,
): Promise<AclPolicyLoad> {
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
  return { views, liveNames: new Set(stubs.map((s) => s.Name)), stubs, replica: replicaItems(stubs) };
}

/** A replica copies whole policies, Hash with them: compared by name. */
export function replicaItems(stubs: readonly WireAclPolicyStub[]): ReplicaItem[] {
  return stubs.map((s) => ({ key: s.Name, Hash: s.Hash }));
}
