import type { KindDefinition } from '../types.js';
import { checkNoCodeModule } from './rules.js';

export type * from './spec.js';

export const noCodeModule: KindDefinition<'NoCodeModule'> = {
  kind: 'NoCodeModule',
  provider: 'tfe',
  remote: () => import('./remote/index.js').then((m) => m.remote),
  // Matched live by its registry module (src/providers/tfe/load.ts), not by name: the name is converge's own.
  rename: 'state-only',
  schemaFile: 'no-code-module.json',
  exportFile: 'no-code-modules.yaml',
  check: checkNoCodeModule,
};
