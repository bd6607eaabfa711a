import type { KindDefinition } from '../types.js';
import { checkBindingRule } from './rules.js';

export type * from './spec.js';

export const nomadBindingRule: KindDefinition<'NomadBindingRule'> = {
  kind: 'NomadBindingRule',
  provider: 'nomad',
  schemaFile: 'nomad-binding-rule.json',
  exportFile: 'nomad-binding-rules.yaml',
  matchedBy: 'its auth method, selector, bind type and bind name',
  // The method may also exist only live: the provider checks that at plan time, so no manifest rule here.
  reference: { field: 'authMethod', kind: 'NomadAuthMethod' },
  check: checkBindingRule,
};
