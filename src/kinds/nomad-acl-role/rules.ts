import type { RuleSink } from '../rule-sink.js';
import { checkDescriptionBytes } from '../nomad-description.js';
import type { NomadAclRoleSpec } from './spec.js';

/**
 * Nomad's ACL role validation (nomad/structs/acl.go ACLRole.Validate; name pattern is the schema's).
 * Whether each policy exists needs Nomad: the provider checks that at plan time.
 */
export function checkAclRole(d: RuleSink, spec: NomadAclRoleSpec): void {
  checkDescriptionBytes(d, 'nomad.acl-role.description-too-long', spec.description);
  if (spec.policies.length === 0) {
    d.error('nomad.acl-role.no-policies', '/spec/policies', 'a role needs at least one policy', 'List the ACL policies the role grants, e.g. policies: [readonly]; Nomad refuses a role without any.');
  }
  const seen = new Set<string>();
  spec.policies.forEach((name, i) => {
    if (seen.has(name)) {
      // Nomad keeps the first and drops the repeat (nomad/acl_endpoint.go UpsertRoles): harmless, but a sign of a slip.
      d.warning('nomad.acl-role.policy-twice', `/spec/policies/${i}`, `policy ${name} is listed twice`, 'Remove the repeat: Nomad keeps one link per policy.');
    }
    seen.add(name);
  });
}
