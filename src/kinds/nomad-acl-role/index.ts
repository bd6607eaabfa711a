import { listReference } from '../references.js';
import type { KindDefinition } from '../types.js';
import { checkAclRole } from './rules.js';

export type * from './spec.js';

export const nomadAclRole: KindDefinition<'NomadAclRole'> = {
  kind: 'NomadAclRole',
  provider: 'nomad',
  remote: () => import('./remote/index.js').then((m) => m.remote),
  // An update by ID with a new Name keeps the tokens linked to the role (docs/reference/nomad-api.md §10a).
  rename: 'in-place',
  schemaFile: 'nomad-acl-role.json',
  exportFile: 'nomad-acl-roles.yaml',
  // A policy may also exist only live: the provider checks that at plan time, so no manifest rule here.
  references: listReference('policies', 'NomadAclPolicy'),
  check: checkAclRole,
};
