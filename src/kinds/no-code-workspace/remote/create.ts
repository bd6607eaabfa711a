import { ConvergeError, isConvergeError } from '../../../diagnostics/errors.js';
import type { ApplyOutcome, PlannedChange } from '../../../providers/provider.js';
import { createBody, workspaceIntentOf } from './send-intent.js';
import { parseSourceModuleId } from '../../../providers/tfe/mapping.js';
import { outcome } from '../../../providers/tfe/outcome.js';
import { claimCreated, retryPendingTag } from './owner-tag.js';
import type { WorkspaceWire } from '../../../providers/tfe/wire.js';
import { type Env, type WorkspaceDesired, str, saveRecord, appliedFields, moduleIdFor } from './env.js';
import { secretVersions } from './variables.js';
import { followPlainRun, findFirstRun, runOutcome } from './follow-run.js';
import { createNoCodeWorkspace } from './endpoints.js';

/*
 * A workspace creation, then its first run followed.
 */

export async function createWorkspace(env: Env, p: PlannedChange, d: WorkspaceDesired): Promise<ApplyOutcome> {
  let created: string | undefined;
  const result = await createAndFollow(env, p, d, (id) => (created = id));
  // A named state's tag that failed right after the create gets a second try once the first run is followed.
  if (created !== undefined) await retryPendingTag(env.session, env.ctx, p.view, created, d.name);
  return result;
}

async function createAndFollow(env: Env, p: PlannedChange, d: WorkspaceDesired, made: (id: string) => void): Promise<ApplyOutcome> {
  const { client } = env.session;
  const intent = workspaceIntentOf(p).create;
  if (!intent) return outcome(p, 'failed', { code: 'internal-no-create-body' });
  const moduleId = moduleIdFor(env, intent.moduleId, intent.module);
  if (moduleId === undefined) {
    const error = new ConvergeError('tfe.workspace.module-missing', `NoCodeModule/${d.spec.module} has no no-code module in HCP Terraform: cannot create workspace ${d.name}`, {
      source: 'user',
      ...(d.positions['/spec/module'] ? { range: d.positions['/spec/module'] } : {}),
    });
    return outcome(p, 'failed', error.message, { error });
  }
  const spec = d.spec;
  const body = await createBody(env.ctx, d, intent);
  let ws: WorkspaceWire;
  try {
    ws = await createNoCodeWorkspace(client, moduleId, body, { what: `workspace ${d.name}`, desired: d });
  } catch (e) {
    // A create is not retried blindly (docs/architecture.md "Rules the code keeps"): after a failure that may have reached the
    // server, look the workspace up by its natural key; found means it was created.
    const maybeCreated = !isConvergeError(e) || e.retryable;
    const found = maybeCreated ? await client.workspaces.showWorkspace(d.name).catch(() => null) : null;
    if (!found) throw e;
    ws = found;
  }
  const version = parseSourceModuleId(ws.sourceModuleId)?.version ?? str(p.view.desired?.fields.moduleVersion);
  // Saved before following the first run: a killed apply must not lose the workspace.
  await saveRecord(env, p, ws.id, appliedFields(p, version), { workspaceId: ws.id, moduleId, ...(await secretVersions(env, p, d, ws.id, true)) });
  made(ws.id);
  await claimCreated(env.session, env.ctx, p.view, ws.id, d.name);
  const runId = await findFirstRun(env, ws);
  if (runId === undefined) {
    return outcome(p, 'succeeded', { code: 'created-no-first-run', id: ws.id });
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
  if (result.status === 'applied' || result.status === 'no-changes') {
    // Said as a code with data: the view words "created ws-… at 1.4.0: run applied" (views/apply-result.ts).
    return outcome(p, 'succeeded', { code: 'created-run', id: ws.id, version, run: result.status }, { runUrl: url });
  }
  return runOutcome(p, { step: 'created', id: ws.id, version }, result, url);
}
