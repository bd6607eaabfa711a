import { mapLimit } from '../../../async/map-limit.js';
import { wireJson } from '../../../providers/nomad/apply-intent.js';
import { ofKind, type NomadKindRemote } from '../../../providers/nomad/kind-remote.js';
import { READ_CONCURRENCY } from '../../../providers/nomad/session.js';
import { applyAclPolicies } from './apply.js';
import { listAclPolicies, readAclPolicy } from './endpoints.js';
import { loadAclPolicies, replicaItems } from './load.js';
import { aclPolicyRequest, aclPolicySpecFromWire } from './mapping.js';

/** NomadAclPolicy's remote half: a policy is keyed by its name, and its list carries a Hash but not its Rules. */
export const remote = {
  provider: 'nomad',
  kind: 'NomadAclPolicy',
  // A policy this plan deletes may still be linked by a role converge does not manage: the roles' list
  // is read so their load can warn (checks.ts of NomadAclRole).
  wants(run) {
    const { desired, records } = ofKind(run, 'NomadAclPolicy');
    const kept = new Set(desired.map((d) => d.name));
    return records.some((r) => !kept.has(r.name)) ? ['NomadAclRole'] : [];
  },
  load: loadAclPolicies,
  body: (o) => ({ body: wireJson(aclPolicyRequest(o.name, o.spec)) }),
  updatesById: false,
  apply: applyAclPolicies,
  // One list, one GET each (the list has no Rules), through the mapping the plan uses.
  async export(client, result) {
    const names = (await listAclPolicies(client)).map((s) => s.Name).sort();
    // `self` cannot be read over HTTP (endpoints.ts refuseSelfPolicy); nor could converge manage it.
    const readable = names.filter((n) => n !== 'self');
    if (readable.length < names.length) result.notes.push('ACL policy "self" skipped: Nomad\'s HTTP API cannot read or write a policy of that name');
    const policies = await mapLimit(readable, READ_CONCURRENCY, (name) => readAclPolicy(client, name));
    for (const p of policies) {
      // Deleted between the list and the read: nothing to export.
      if (p) result.documents.push({ kind: 'NomadAclPolicy', name: p.Name, spec: aclPolicySpecFromWire(p) });
    }
  },
  replica: { item: 'NomadAclPolicy', noun: 'ACL policy', list: async (client, call) => replicaItems(await listAclPolicies(client, call)) },
} satisfies NomadKindRemote<'NomadAclPolicy'>;
