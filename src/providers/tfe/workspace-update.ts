import type { ApplyOutcome, PlannedChange } from '../provider.js';
import type { WorkspaceUpdateBody } from './client.js';
import { outcome } from './outcome.js';
import { pendingRun } from './upgrade-driver.js';
import { type Env, type WorkspaceDesired, topPaths, str, saveRecord, appliedFields, moduleIdFor, projectId } from './workspace-env.js';
import { secretVersions, syncVars } from './workspace-variables.js';
import { runOutcome, resumeRun, adoptFirstRun } from './workspace-follow-run.js';
import { upgradeRun } from './workspace-upgrade.js';

/*
 * A workspace update: settings (PATCH /workspaces/:id) and variables, then a run an earlier apply left in flight.
 */

/** Settings sent with PATCH /workspaces/:id (reference tfc-api.md §5). */
export const SETTINGS = ['description', 'executionMode', 'agentPoolId', 'autoApply', 'sourceName', 'sourceUrl', 'project'] as const;

export async function syncSettings(env: Env, p: PlannedChange, d: WorkspaceDesired, workspaceId: string): Promise<boolean> {
  const changed = topPaths(p);
  if (!SETTINGS.some((s) => changed.has(s))) return false;
  const spec = d.spec;
  const body: WorkspaceUpdateBody = {};
  if (changed.has('description')) body.description = spec.description ?? '';
  if (changed.has('executionMode') || changed.has('agentPoolId')) {
    body.executionMode = spec.executionMode ?? 'remote';
    // agent-pool-id only with agent mode (reference §5: forbidden for remote).
    if (body.executionMode === 'agent') body.agentPoolId = spec.agentPoolId ?? null;
  }
  if (changed.has('autoApply')) body.autoApply = spec.autoApply ?? false;
  if (changed.has('sourceName')) body.sourceName = spec.sourceName ?? null;
  if (changed.has('sourceUrl')) body.sourceUrl = spec.sourceUrl ?? null;
  // Without a project in the manifest, converge does not move the workspace (mapping.ts).
  if (changed.has('project') && spec.project !== undefined) body.projectId = await projectId(env, spec.project);
  if (Object.keys(body).length === 0) return false;
  await env.session.client.updateWorkspace(workspaceId, body, { what: `workspace ${d.name}`, desired: d });
  return true;
}

export async function updateWorkspace(env: Env, p: PlannedChange, d: WorkspaceDesired): Promise<ApplyOutcome> {
  const live = p.view.live;
  if (!live) return outcome(p, 'failed', 'internal: update without a live workspace');
  const settings = await syncSettings(env, p, d, live.id);
  const writes = await syncVars(env, p, d, live.id);
  const version = str(live.fields.moduleVersion);
  await saveRecord(env, p, live.id, appliedFields(p, version), {
    workspaceId: live.id,
    moduleId: moduleIdFor(env, d.spec.module) ?? null,
    ...(await secretVersions(env, p, d, live.id, writes > 0)),
  });
  const done = [settings ? 'settings updated' : '', writes > 0 ? `${writes} variable write(s)` : ''].filter((s) => s !== '').join(', ') || 'recorded in state';
  let inFlight = env.ctx.record(p.change)?.inFlight;
  if (!inFlight && typeof live.extra.pendingFirstRun === 'string') {
    // The plan saw the adopted workspace's first run waiting (load.ts): look again, it may have ended since.
    const pending = await pendingRun(env.session.client, live.id, d.name);
    if (pending?.first) inFlight = await adoptFirstRun(env, p, pending);
  }
  if (!inFlight) return outcome(p, 'succeeded', done);
  if (inFlight.purpose === 'upgrade') return upgradeRun(env, p, d, live.id, done);
  const { result, url } = await resumeRun(env, p, inFlight, live.extra.autoApply === true, d.spec.upgrade?.confirm ?? 'auto');
  return runOutcome(p, done, result, url);
}
