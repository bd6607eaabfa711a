import type { TfeKindRemote } from '../../../providers/tfe/kind-remote.js';
import { applyWorkspaces } from './apply.js';
import { exportWorkspaces } from './export.js';
import { workspaceImportRecord } from './import-record.js';
import { workspaceIntent } from './intent.js';
import { loadWorkspaceViews } from './load.js';
import { claimChange, releaseWorkspace } from './owner-tag.js';
import { refineWorkspaceChange } from './refine.js';

/**
 * NoCodeWorkspace's remote half: a workspace created from its module's no-code module, its settings and
 * variables, the runs that create, upgrade and destroy it (followed by the provider's run follower, upgrades
 * rolled out through its canary rollout), and the owner tag of a named state.
 */
export const remote = {
  provider: 'tfe',
  kind: 'NoCodeWorkspace',
  load: loadWorkspaceViews,
  // A named state claims the workspaces it owns (owner-tag.ts).
  refine: (view, change, { all, how, stateName }) => refineWorkspaceChange(view, change, all, how).map((c) => claimChange(view, c, stateName)),
  intent: (view, change, { all, how }) => workspaceIntent(view, change, all, how),
  apply: (session, batch, ctx) => applyWorkspaces(batch, session, ctx),
  adopt: workspaceImportRecord,
  export: exportWorkspaces,
  exportsWith: { kind: 'NoCodeModule', note: (n) => `also exported ${n} NoCodeModule document(s): exported workspaces name them in spec.module` },
  release: releaseWorkspace,
} satisfies TfeKindRemote<'NoCodeWorkspace'>;
