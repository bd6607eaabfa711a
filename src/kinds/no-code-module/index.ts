import type { KindDefinition } from '../types.js';
import { checkNoCodeModule } from './rules.js';

export type * from './spec.js';

export const noCodeModule: KindDefinition<'NoCodeModule'> = {
  kind: 'NoCodeModule',
  provider: 'tfe',
  schemaFile: 'no-code-module.json',
  exportFile: 'no-code-modules.yaml',
  check: checkNoCodeModule,
};
