import type { DocDiagnostics } from '../../manifest/rules/context.js';
import { checkDescriptionBytes } from '../nomad-description.js';
import type { NomadAclRoleSpec } from './spec.js';

/**
 * Nomad's ACL role validation (nomad/structs/acl.go ACLRole.Validate); name, at least one policy and
 * no repeats are the schema's. Whether each policy exists needs Nomad: the provider checks at plan time.
 */
export function checkAclRole(d: DocDiagnostics, spec: NomadAclRoleSpec): void {
  checkDescriptionBytes(d, 'nomad.acl-role.description-too-long', spec.description);
}
