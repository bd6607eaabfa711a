import type { Kind } from '../../model/kinds.js';
import type { ExportResult } from '../export-types.js';
import { aclPolicySpecFromWire, aclRoleSpecFromWire } from './acl-mapping.js';
import type { NomadClient } from './client.js';
import { mapLimit } from '../../async/map-limit.js';
import { READ_CONCURRENCY } from './session.js';

/**
 * `converge export` of ACL policies (one list, one GET each: the list has no Rules) and roles (one
 * list: it carries every field), through the same wire → manifest mapping the plan uses, so a plan of
 * the exported documents shows no changes.
 */
export async function exportAcl(client: NomadClient, kinds: ReadonlySet<Kind>, result: ExportResult): Promise<void> {
  if (kinds.has('NomadAclPolicy')) {
    const names = (await client.listAclPolicies()).map((s) => s.Name).sort();
    // `self` cannot be read over HTTP (client.ts refuseSelfPolicy); nor could converge manage it.
    const readable = names.filter((n) => n !== 'self');
    if (readable.length < names.length) result.notes.push('ACL policy "self" skipped: Nomad\'s HTTP API cannot read or write a policy of that name');
    const policies = await mapLimit(readable, READ_CONCURRENCY, (name) => client.readAclPolicy(name));
    for (const p of policies) {
      // Deleted between the list and the read: nothing to export.
      if (p) result.documents.push({ kind: 'NomadAclPolicy', name: p.Name, spec: aclPolicySpecFromWire(p) });
    }
  }
  if (kinds.has('NomadAclRole')) {
    const roles = [...(await client.listAclRoles())].sort((a, b) => (a.Name < b.Name ? -1 : a.Name > b.Name ? 1 : 0));
    for (const r of roles) result.documents.push({ kind: 'NomadAclRole', name: r.Name, spec: aclRoleSpecFromWire(r) });
  }
}
