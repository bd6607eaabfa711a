import type { DesiredObject } from '../../model/desired.js';
import type { StateRecord } from '../../state/types.js';
import { aclPolicyFields, liveAclPolicyFields } from './acl-mapping.js';
import type { CallOptions } from './client.js';
import { joinByName, readLiveByHash } from './join-by-name.js';
import type { KindLoad } from './kind-remote.js';
import type { NomadSession } from './session.js';
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
  const stubs = await session.client.listAclPolicies(call);
  const views = joinByName('NomadAclPolicy', desired, records).map(({ view, object }) => {
    if (object) view.desired = { object, fields: aclPolicyFields(object.spec), secrets: {} };
    return view;
  });
  await readLiveByHash(
    views,
    stubs,
    (name) => session.client.readAclPolicy(name, call),
    (wire, view) => ({ id: view.name, fields: liveAclPolicyFields(wire), extra: { hash: wire.Hash } }),
  );
  return { views, liveNames: new Set(stubs.map((s) => s.Name)), stubs, replica: stubs.map((s) => ({ key: s.Name, Hash: s.Hash })) };
}
