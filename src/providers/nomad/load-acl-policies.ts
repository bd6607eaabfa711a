import type { DesiredObject } from '../../model/desired.js';
import type { StateRecord } from '../../state/types.js';
import type { ObjectView } from '../provider.js';
import { aclPolicyFields, liveAclPolicyFields } from './acl-mapping.js';
import type { CallOptions } from './client.js';
import { liveFromRecord } from './hash-shortcut.js';
import { mapLimit } from '../../async/map-limit.js';
import { READ_CONCURRENCY } from './session.js';
import type { NomadSession } from './session.js';
import type { WireAclPolicyStub } from './wire.js';

export interface AclPolicyLoad {
  views: ObjectView[];
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
  const stubByName = new Map(stubs.map((s) => [s.Name, s]));
  const desiredByName = new Map(desired.map((d) => [d.name, d]));
  const recordByName = new Map(records.map((r) => [r.name, r]));
  const names = [...new Set([...desiredByName.keys(), ...recordByName.keys()])].sort();

  const views = new Map<string, ObjectView>();
  const toFetch: string[] = [];
  for (const name of names) {
    const view: ObjectView = { kind: 'NomadAclPolicy', name };
    const record = recordByName.get(name);
    if (record) view.record = record;
    const object = desiredByName.get(name);
    if (object) view.desired = { object, fields: aclPolicyFields(object.spec), secrets: {} };
    views.set(name, view);
    const stub = stubByName.get(name);
    if (!stub) continue;
    const known = liveFromRecord(name, record, stub.Hash);
    if (known) view.live = known;
    else toFetch.push(name);
  }

  await mapLimit(toFetch, READ_CONCURRENCY, async (name) => {
    const wire = await session.client.readAclPolicy(name, call);
    const view = views.get(name);
    // Deleted between the list and the read: treated as absent.
    if (wire && view) view.live = { id: name, fields: liveAclPolicyFields(wire), extra: { hash: wire.Hash } };
  });
  return { views: [...views.values()], liveNames: new Set(stubs.map((s) => s.Name)), stubs };
}
