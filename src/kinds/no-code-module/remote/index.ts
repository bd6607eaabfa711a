import { applyModules } from '../../../providers/tfe/apply-modules.js';
import { moduleImportRecord } from '../../../providers/tfe/export-record.js';
import { exportModules } from '../../../providers/tfe/export.js';
import { moduleIntent } from '../../../providers/tfe/intent.js';
import type { TfeKindRemote } from '../../../providers/tfe/kind-remote.js';
import { loadModuleViews } from '../../../providers/tfe/load.js';

/**
 * NoCodeModule's remote half: one no-code module per private registry module, found through the registry
 * module (there is no no-code module list), enabled, updated as a whole set and deleted.
 */
export const noCodeModuleRemote: TfeKindRemote<'NoCodeModule'> = {
  kind: 'NoCodeModule',
  load: loadModuleViews,
  refine: (_view, change) => [change],
  intent: (view, change) => moduleIntent(view, change),
  apply: (session, batch, ctx) => applyModules(batch, session, ctx),
  adopt: moduleImportRecord,
  export: exportModules,
};
