import type { TfeKindRemote } from '../../../providers/tfe/kind-remote.js';
import { applyModules, moduleImportRecord } from './apply.js';
import { exportModules } from './export.js';
import { moduleIntent } from './intent.js';
import { loadModuleViews } from './load.js';

/**
 * NoCodeModule's remote half: one no-code module per private registry module, found through the registry
 * module (there is no no-code module list), enabled, updated as a whole set and deleted. Its endpoints
 * (endpoints.ts, registry-modules.ts) are its own: no other kind reads these resources.
 */
export const remote = {
  provider: 'tfe',
  kind: 'NoCodeModule',
  load: loadModuleViews,
  refine: (_view, change) => [change],
  intent: (view, change) => moduleIntent(view, change),
  apply: (session, batch, ctx) => applyModules(batch, session, ctx),
  adopt: moduleImportRecord,
  export: exportModules,
} satisfies TfeKindRemote<'NoCodeModule'>;
