import type { KindDefinition } from '../types.js';
import { checkAclPolicy } from './rules.js';

export type * from './spec.js';

export const nomadAclPolicy: KindDefinition<'NomadAclPolicy'> = {
  kind: 'NomadAclPolicy',
  provider: 'nomad',
  remote: () => import('./remote/index.js').then((m) => m.remote),
  schemaFile: 'nomad-acl-policy.json',
  exportFile: 'nomad-acl-policies.yaml',
  check: checkAclPolicy,
};
