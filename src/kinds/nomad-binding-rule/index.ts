import { fieldReference } from '../references.js';
import type { KindDefinition } from '../types.js';
import { boundObject } from './bound-object.js';
import { checkBindingRule, checkBindNamesAcross } from './rules.js';

export type * from './spec.js';

const authMethodReference = fieldReference('authMethod', 'NomadAuthMethod');

export const nomadBindingRule: KindDefinition<'NomadBindingRule'> = {
  kind: 'NomadBindingRule',
  provider: 'nomad',
  remote: () => import('./remote/index.js').then((m) => m.remote),
  // A rule has no name in Nomad, only a server-made ID (docs/reference/nomad-api.md §10): the name is converge's own.
  rename: 'state-only',
  schemaFile: 'nomad-binding-rule.json',
  exportFile: 'nomad-binding-rules.yaml',
  matchedBy: 'its auth method, selector, bind type and bind name',
  // The method, role or policy may also exist only live: the provider checks that at plan time, so no
  // manifest rule here.
  references: (fields) => {
    const bound = boundObject(fields);
    return [...authMethodReference(fields), ...(bound ? [bound] : [])];
  },
  check: checkBindingRule,
  checkAcross: checkBindNamesAcross,
};
