import type { Store, Workspace } from './model.js';
import { orgRef } from './org-wire.js';
import type { RunEngine } from './run-engine.js';

/** The workspaces document (docs/reference/hcp-terraform-api.md §2 NC sample, §5). */

export const workspacePath = (store: Store, ws: Workspace): string => `/api/v2/organizations/${store.organization}/workspaces/${encodeURIComponent(ws.name)}`;

function latestRun(store: Store, ws: Workspace): unknown {
  const runs = store.runsOf(ws.id);
  const id = runs[runs.length - 1]?.id;
  return id ? { data: { id, type: 'runs' }, links: { related: `/api/v2/runs/${id}` } } : { data: null };
}

export function workspaceResource(store: Store, engine: RunEngine, ws: Workspace): unknown {
  const attributes: Record<string, unknown> = {
    name: ws.name,
    description: ws.description,
    'auto-apply': ws.autoApply,
    'execution-mode': ws.executionMode,
    operations: ws.executionMode !== 'local',
    environment: 'default',
    'created-at': ws.createdAt,
    'updated-at': ws.updatedAt,
    'latest-change-at': ws.updatedAt,
    // A run holds the workspace while it is active (RUN); the sandbox shows that as locked.
    locked: engine.active(ws.id) !== undefined,
    'terraform-version': ws.terraformVersion,
    'working-directory': null,
    'resource-count': ws.managedResources,
    source: ws.source,
    'source-name': ws.sourceName,
    'source-url': ws.sourceUrl,
    'setting-overwrites': { 'execution-mode': ws.settingOverwrites.executionMode, 'agent-pool': ws.settingOverwrites.agentPool },
    'speculative-enabled': true,
    'queue-all-runs': false,
    'allow-destroy-plan': true,
    'global-remote-state': false,
    'file-triggers-enabled': true,
    'trigger-prefixes': [],
    'tag-names': ws.tagNames ?? [],
    'vcs-repo': null,
    actions: { 'is-destroyable': true },
    permissions: { 'can-update': true, 'can-destroy': true, 'can-queue-run': true, 'can-read-variable': true, 'can-update-variable': true, 'can-force-delete': true },
  };
  // Present only on no-code workspaces (docs/reference/hcp-terraform-api.md §2: OAS omits them otherwise).
  if (ws.noCode) {
    attributes['source-module-id'] = store.sourceModuleId(ws);
    attributes['no-code-upgrade-available'] = store.upgradeAvailable(ws);
  }
  const relationships: Record<string, unknown> = {
    organization: orgRef(store),
    project: { data: { id: ws.projectId, type: 'projects' } },
    // Written as attribute agent-pool-id, read as this relationship (docs/reference/hcp-terraform-api.md §5).
    'agent-pool': { data: ws.agentPoolId ? { id: ws.agentPoolId, type: 'agent-pools' } : null },
    'current-run': {
      data: ws.currentRunId ? { id: ws.currentRunId, type: 'runs' } : null,
      ...(ws.currentRunId ? { links: { related: `/api/v2/runs/${ws.currentRunId}` } } : {}),
    },
    // The newest run, whatever its state: a run queued behind another stays `pending` and is not current until
    // it starts (run-engine.ts), but it is already the latest (WS sample responses carry `latest-run`).
    'latest-run': latestRun(store, ws),
    'current-configuration-version': { data: { id: ws.configurationVersionId, type: 'configuration-versions' } },
    vars: { data: ws.vars.map((v) => ({ id: v.id, type: 'vars' })) },
  };
  if (ws.noCode) {
    relationships['no-code-module-version'] = {
      data: { id: store.noCodeVersionId(ws.noCode.moduleId, ws.noCode.version), type: 'no-code-module-versions' },
    };
  }
  return {
    id: ws.id,
    type: 'workspaces',
    attributes,
    relationships,
    links: { self: workspacePath(store, ws), 'self-html': `/app/${store.organization}/workspaces/${encodeURIComponent(ws.name)}` },
  };
}
