import { ConvergeError, isConvergeError } from '../../diagnostics/errors.js';
import type { ApplyOutcome, PlannedChange } from '../provider.js';
import type { VarBody } from './client.js';
import { parseSourceModuleId } from './mapping.js';
import { outcome } from './outcome.js';
import type { WorkspaceWire } from './wire.js';
import { type Env, type WorkspaceDesired, str, saveRecord, appliedFields, moduleIdFor, projectId } from './workspace-env.js';
import { varBody, secretVersions } from './workspace-variables.js';
import { followPlainRun, findFirstRun, runOutcome } from './workspace-follow-run.js';

/*
 * A workspace creation, then its first run followed.
 */

export async function createWorkspace(env: Env, p: PlannedChange, d: WorkspaceDesired): Promise<ApplyOutcome> {
  const { client } = env.session;
  const moduleId = moduleIdFor(env, d.spec.module);
  if (moduleId === undefined) {
    const error = new ConvergeError('tfe.workspace.module-missing', `NoCodeModule/${d.spec.module} has no no-code module in HCP Terraform: cannot create workspace ${d.name}`, {
      source: 'user',
      ...(d.positions['/spec/module'] ? { range: d.positions['/spec/module'] } : {}),
    });
    return outcome(p, 'failed', error.message, { error });
  }
  const spec = d.spec;
  const vars: VarBody[] = [];
  for (const v of spec.variables ?? []) vars.push(await varBody(env, d, v));
  const body = {
    name: d.name,
    description: spec.description ?? '',
    executionMode: spec.executionMode ?? 'remote',
    agentPoolId: (spec.executionMode ?? 'remote') === 'agent' ? (spec.agentPoolId ?? null) : null,
    autoApply: spec.autoApply ?? false,
    sourceName: spec.sourceName ?? null,
    sourceUrl: spec.sourceUrl ?? null,
    projectId: spec.project !== undefined ? await projectId(env, spec.project) : null,
    vars,
  };
  let ws: WorkspaceWire;
  try {
    ws = await client.createNoCodeWorkspace(moduleId, body, { what: `workspace ${d.name}`, desired: d });
  } catch (e) {
    // A create is not retried blindly (STYLE.md §5): after a failure that may have reached the
    // server, look the workspace up by its natural key; found means it was created.
    const maybeCreated = !isConvergeError(e) || e.retryable;
    const found = maybeCreated ? await client.showWorkspace(d.name).catch(() => null) : null;
    if (!found) throw e;
    ws = found;
  }
  const version = parseSourceModuleId(ws.sourceModuleId)?.version ?? str(p.view.desired?.fields.moduleVersion);
  // Saved before following the first run: a killed apply must not lose the workspace.
  await saveRecord(env, p, ws.id, appliedFields(p, version), { workspaceId: ws.id, moduleId, ...(await secretVersions(env, p, d, ws.id, true)) });
  const runId = await findFirstRun(env, ws);
  if (runId === undefined) {
    return outcome(p, 'succeeded', `created ${ws.id}; no first run appeared (HCP Terraform queues one with the creation; start one there if the workspace needs it)`);
  }
  const startedAt = new Date().toISOString();
  await env.ctx.setInFlight(p.change, { purpose: 'provision', runId, phase: 'initiated', startedAt, toVersion: version });
  const { result, url } = await followPlainRun(env, p, {
    workspace: d.name,
    workspaceId: ws.id,
    runId,
    purpose: 'provision',
    phase: 'initiated',
    startedAt,
    toVersion: version,
    policy: spec.upgrade?.confirm ?? 'auto',
    autoApply: ws.autoApply ?? body.autoApply,
  });
  return runOutcome(p, `created ${ws.id} at ${version ?? 'the module’s version'}`, result, url);
}
