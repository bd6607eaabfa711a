import { optionalData, requireType } from './body.js';
import { ok, type Ctx, type Reply, type Route } from './context.js';
import { notFound } from './errors.js';
import type { Run, Workspace } from './model.js';
import { findNoCode } from './no-code-modules.js';
import { NO_CODE_WORKSPACE_TYPES } from './no-code-workspaces.js';
import { planUrl } from './run-wire.js';
import { readVarsRelationship, upsertVars } from './vars.js';
import { findWorkspace } from './workspace-lookup.js';

/**
 * No-code workspace upgrade: initiate, status, confirm (docs/reference/hcp-terraform-api.md §3).
 * The upgrade id is the id of the run it starts, so `/runs/:id` sees the same run.
 */

/** The documented confirm body, which is not JSON (docs/reference/hcp-terraform-api.md §3); sent as is. */
export const CONFIRM_BODY = '{ "Workspace update completed" }';

export const NO_UPGRADE_MESSAGE = 'No upgrade available';

function target(ctx: Ctx, p: Record<string, string>): Workspace {
  const ncm = findNoCode(ctx, p.moduleId);
  const ws = findWorkspace(ctx, p.workspaceId);
  if (ws.noCode?.moduleId !== ncm.id) throw notFound();
  return ws;
}

function upgradeRun(ctx: Ctx, ws: Workspace, runId: string | undefined): Run {
  const run = ctx.store.runs.get(runId ?? '');
  // 404 for an unknown upgrade (docs/reference/hcp-terraform-api.md §8), and for a run that is not an upgrade of this workspace.
  if (!run || run.workspaceId !== ws.id || run.kind !== 'upgrade') throw notFound();
  return run;
}

function upgradeDocument(ctx: Ctx, run: Run): unknown {
  return {
    data: {
      id: run.id,
      type: 'workspace-upgrade',
      attributes: { status: run.status, 'plan-url': planUrl(ctx, run) },
      relationships: { workspace: { data: { id: run.workspaceId, type: 'workspaces' } } },
    },
  };
}

function initiate(ctx: Ctx, p: Record<string, string>): Reply {
  const ws = target(ctx, p);
  const ncm = findNoCode(ctx, p.moduleId);
  const data = optionalData(ctx.body);
  if (data.value.type !== undefined) requireType(data, NO_CODE_WORKSPACE_TYPES);
  const vars = readVarsRelationship(data);
  const message = data.object('attributes')?.string('message', { nullable: true }) ?? 'Upgrade triggered via no-code provisioning';
  // Nothing to do: the call still succeeds, with only a message (docs/reference/hcp-terraform-api.md §3, go-tfe WorkspaceUpgrade.Message).
  if (ws.noCode?.version === ncm.versionPin && (vars === undefined || vars.length === 0)) {
    return ok({ data: { type: 'workspace-upgrade', attributes: { message: NO_UPGRADE_MESSAGE } } });
  }
  if (vars) upsertVars(ctx, ws, vars);
  // An upgrade plans and then waits for the confirm step whatever the workspace's auto-apply (§3: three steps).
  const run = ctx.engine.create(ws, { kind: 'upgrade', isDestroy: false, message, autoApply: false });
  // Status code undocumented (go-tfe accepts any 2xx); 200 like the other no-code calls.
  return ok(upgradeDocument(ctx, run));
}

function confirm(ctx: Ctx, p: Record<string, string>): Reply {
  const ws = target(ctx, p);
  const run = upgradeRun(ctx, ws, p.runId);
  // A run that is not waiting for confirmation: 409, like `actions/apply` on a non-confirmable run.
  ctx.engine.confirm(run);
  return { status: 200, raw: CONFIRM_BODY };
}

export const upgradeRoutes: Route[] = [
  { method: 'POST', pattern: '/no-code-modules/:moduleId/workspaces/:workspaceId/upgrade', handler: initiate, noOrgToken: true },
  {
    method: 'GET',
    pattern: '/no-code-modules/:moduleId/workspaces/:workspaceId/upgrade/:runId',
    handler: (ctx, p) => ok(upgradeDocument(ctx, upgradeRun(ctx, target(ctx, p), p.runId))),
  },
  { method: 'POST', pattern: '/no-code-modules/:moduleId/workspaces/:workspaceId/upgrade/:runId', handler: confirm, noOrgToken: true },
];
