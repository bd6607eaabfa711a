import { listReference } from '../references.js';
import type { KindDefinition } from '../types.js';
import { checkAclRole } from './rules.js';

export type * from './spec.js';

export const nomadAclRole: KindDefinition<'NomadAclRole'> = {
  kind: 'NomadAclRole',
  provider: 'nomad',
  schemaFile: 'nomad-acl-role.json',
  exportFile: 'nomad-acl-roles.yaml',
  // A policy may also exist only live: the provider checks that at plan time, so no manifest rule here.
  references: listReference('policies', 'NomadAclPolicy'),
  check: checkAclRole,
};
