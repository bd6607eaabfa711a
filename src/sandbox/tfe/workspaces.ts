import { dataOf, requireType } from './body.js';
import { noContent, ok, type Ctx, type Reply, type Route } from './context.js';
import { ApiError } from './errors.js';
import { parseInclude } from './include.js';
import { fuzzy, listReply, requireOrg } from './list.js';
import type { NoCodeLink, Workspace } from './model.js';
import { agentPoolResource, organizationResource, projectResource } from './org-wire.js';
import { runResource } from './run-wire.js';
import { findWorkspace, findWorkspaceByName } from './workspace-lookup.js';
import { checkName, checkProject, readWorkspaceInput, resolveExecution, type WorkspaceInput } from './workspace-input.js';
import { workspaceResource } from './workspace-wire.js';

/** Workspaces: create, show by name and id, list, update, force delete, safe delete (docs/reference/hcp-terraform-api.md §5). */

/** Includes the sandbox fills; other real include names are accepted and add nothing (WS lists many more). */
const INCLUDES = ['current_run', 'project', 'organization', 'agent_pool', 'current_configuration_version', 'current_state_version', 'outputs', 'readme', 'locked_by'];

export function newWorkspace(ctx: Ctx, input: WorkspaceInput, noCode: NoCodeLink | null): Workspace {
  const name = checkName(ctx, input.name);
  const { executionMode, agentPoolId } = resolveExecution(ctx, input);
  const projectId = checkProject(ctx, input.projectId);
  const now = new Date().toISOString();
  return {
    id: ctx.store.ids.next('ws'),
    name,
    description: input.description ?? null,
    executionMode,
    agentPoolId,
    autoApply: input.autoApply ?? false,
    sourceName: input.sourceName ?? null,
    sourceUrl: input.sourceUrl ?? null,
    terraformVersion: input.terraformVersion ?? ctx.settings.terraformVersion,
    projectId,
    createdAt: now,
    updatedAt: now,
    // An explicit execution mode overrides the project default (WS setting-overwrites).
    settingOverwrites: { executionMode: input.executionMode !== undefined, agentPool: input.executionMode !== undefined },
    source: noCode ? 'tfe-module' : 'tfe-api',
    noCode,
    vars: [],
    managedResources: 0,
    currentRunId: null,
    configurationVersionId: ctx.store.ids.next('cv'),
  };
}

export function workspaceReply(ctx: Ctx, ws: Workspace, status = 200): Reply {
  const include = parseInclude(ctx.url, INCLUDES);
  const included: unknown[] = [];
  const run = ws.currentRunId ? ctx.store.runs.get(ws.currentRunId) : undefined;
  if (include.has('current_run') && run) included.push(runResource(ctx, run));
  const project = ctx.store.projects.get(ws.projectId);
  if (include.has('project') && project) included.push(projectResource(ctx.store, project));
  if (include.has('organization')) included.push(organizationResource(ctx.store));
  const pool = ws.agentPoolId ? ctx.store.agentPools.get(ws.agentPoolId) : undefined;
  if (include.has('agent_pool') && pool) included.push(agentPoolResource(ctx.store, pool));
  return ok({ data: workspaceResource(ctx.store, ctx.engine, ws), ...(include.size > 0 ? { included } : {}) }, status);
}

function update(ctx: Ctx, ws: Workspace): Reply {
  const data = dataOf(ctx.body);
  requireType(data, ['workspaces']);
  const input = readWorkspaceInput(data, ['remote', 'local', 'agent']);
  // Omitted fields keep their value; a new name changes the URL (docs/reference/hcp-terraform-api.md §5).
  const name = input.name !== undefined ? checkName(ctx, input.name, ws.id) : ws.name;
  const exec = resolveExecution(ctx, input, ws);
  const projectId = input.projectId !== undefined ? checkProject(ctx, input.projectId) : ws.projectId;
  ws.name = name;
  ws.executionMode = exec.executionMode;
  ws.agentPoolId = exec.agentPoolId;
  ws.projectId = projectId;
  if (input.executionMode !== undefined) ws.settingOverwrites = { executionMode: true, agentPool: true };
  if (input.description !== undefined) ws.description = input.description;
  if (input.autoApply !== undefined) ws.autoApply = input.autoApply;
  // source-name / source-url are create-only: the update API has neither, so a PATCH carrying them is
  // accepted and they are silently dropped (docs/reference/hcp-terraform-api.md §5; go-tfe WorkspaceUpdateOptions).
  if (input.terraformVersion !== undefined) ws.terraformVersion = input.terraformVersion;
  ws.updatedAt = new Date().toISOString();
  return workspaceReply(ctx, ws);
}

function forceDelete(ctx: Ctx, ws: Workspace): Reply {
  ctx.store.workspaces.delete(ws.id);
  for (const r of ctx.store.runsOf(ws.id)) ctx.store.runs.delete(r.id);
  return noContent();
}

/** 409 with go-tfe's texts while resources remain, a run holds the workspace, or the last state is still being processed (docs/reference/hcp-terraform-api.md §5, GT errors.go). */
function safeDelete(ctx: Ctx, ws: Workspace): Reply {
  const detail =
    ws.managedResources > 0
      ? 'workspace cannot be safely deleted because it is still managing resources'
      : ctx.engine.active(ws.id)
        ? 'Workspace is currently locked. Workspace must be unlocked before it can be safely deleted'
        : (ws.stateProcessedAt ?? 0) > ctx.engine.clock.now()
          ? 'Latest workspace state is being processed to discover resources, please try again later'
          : undefined;
  if (detail) throw new ApiError(409, [{ status: '409', title: 'conflict', detail }]);
  return forceDelete(ctx, ws);
}

function list(ctx: Ctx, org: string | undefined): Reply {
  requireOrg(ctx, org);
  const include = parseInclude(ctx.url, INCLUDES);
  const q = ctx.url.searchParams;
  const wildcard = q.get('search[wildcard-name]');
  const wildcardRe = wildcard ? new RegExp(`^${wildcard.split('*').map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`, 'i') : null;
  const project = q.get('filter[project][id]');
  const all = [...ctx.store.workspaces.values()].filter(
    // search[name] is "fuzzy" (WS); the sandbox reads that as a case-insensitive substring match.
    (w) => fuzzy(w.name, q.get('search[name]')) && (!wildcardRe || wildcardRe.test(w.name)) && (project === null || w.projectId === project),
  );
  const sort = q.get('sort') ?? 'name';
  const desc = sort.startsWith('-');
  all.sort((a, b) => (sort.replace(/^-/, '') === 'name' ? a.name.localeCompare(b.name) : a.createdAt.localeCompare(b.createdAt)) * (desc ? -1 : 1));
  // include=current_run: each page's current runs in `included` (go-tfe WorkspaceListOptions.Include, WSCurrentRun).
  const currentRuns = (page: Workspace[]) =>
    page.flatMap((w) => {
      const run = w.currentRunId ? ctx.store.runs.get(w.currentRunId) : undefined;
      return run ? [runResource(ctx, run)] : [];
    });
  return listReply(ctx, all, (w) => workspaceResource(ctx.store, ctx.engine, w), include.has('current_run') ? currentRuns : undefined);
}

export const workspaceRoutes: Route[] = [
  {
    method: 'POST',
    pattern: '/organizations/:org/workspaces',
    handler: (ctx, p) => {
      requireOrg(ctx, p.org);
      const data = dataOf(ctx.body);
      requireType(data, ['workspaces']);
      const ws = newWorkspace(ctx, readWorkspaceInput(data, ['remote', 'local', 'agent']), null);
      ctx.store.workspaces.set(ws.id, ws);
      return workspaceReply(ctx, ws, 201);
    },
  },
  { method: 'GET', pattern: '/organizations/:org/workspaces', handler: (ctx, p) => list(ctx, p.org) },
  { method: 'GET', pattern: '/organizations/:org/workspaces/:name', handler: (ctx, p) => workspaceReply(ctx, findWorkspaceByName(ctx, p.org, p.name)) },
  { method: 'GET', pattern: '/workspaces/:id', handler: (ctx, p) => workspaceReply(ctx, findWorkspace(ctx, p.id)) },
  { method: 'PATCH', pattern: '/organizations/:org/workspaces/:name', handler: (ctx, p) => update(ctx, findWorkspaceByName(ctx, p.org, p.name)) },
  { method: 'PATCH', pattern: '/workspaces/:id', handler: (ctx, p) => update(ctx, findWorkspace(ctx, p.id)) },
  { method: 'DELETE', pattern: '/organizations/:org/workspaces/:name', handler: (ctx, p) => forceDelete(ctx, findWorkspaceByName(ctx, p.org, p.name)) },
  { method: 'DELETE', pattern: '/workspaces/:id', handler: (ctx, p) => forceDelete(ctx, findWorkspace(ctx, p.id)) },
  {
    method: 'POST',
    pattern: '/organizations/:org/workspaces/:name/actions/safe-delete',
    handler: (ctx, p) => safeDelete(ctx, findWorkspaceByName(ctx, p.org, p.name)),
  },
  { method: 'POST', pattern: '/workspaces/:id/actions/safe-delete', handler: (ctx, p) => safeDelete(ctx, findWorkspace(ctx, p.id)) },
];
