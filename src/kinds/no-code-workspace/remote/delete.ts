import { ConvergeError, isConvergeError } from '../../../diagnostics/errors.js';
import { formatDuration } from '../../../model/duration-text.js';
import type { ApplyOutcome, PlannedChange } from '../../../providers/provider.js';
import { outcome } from '../../../providers/tfe/outcome.js';
import { deletionPolicyOf } from './refine.js';
import { type FollowResult } from '../../../providers/tfe/runs.js';
import { type Env } from './env.js';
import { followPlainRun, runOutcome, resumeRun } from './follow-run.js';

/*
 * A workspace deletion per its policy: orphan, safe-delete, or a destroy run followed by safe-delete.
 */

/**
 * Right after a run applies, HCP Terraform processes the new state and safe-delete answers the temporary
 * 409 `Latest workspace state is being processed to discover resources, please try again later`
 * (docs/reference/hcp-terraform-api.md §5, go-tfe ErrWorkspaceStillProcessing). Only that 409 is waited out, with a
 * bounded backoff; the other 409s (resources left, locked) are final.
 */
export const STILL_PROCESSING = /state is being processed/i;
export const PROCESSING_WAIT_LIMIT_MS = 120_000;

export async function safeDeleteOnceProcessed(env: Env, p: PlannedChange, id: string): Promise<boolean> {
  const clock = env.session.client.clock;
  const started = clock.now();
  for (let n = 0; ; n++) {
    try {
      return await env.session.client.workspaces.safeDeleteWorkspace(id, { what: `workspace ${p.change.name}` });
    } catch (e) {
      const waited = clock.now() - started;
      if (!(isConvergeError(e) && e.code === 'tfe.conflict' && STILL_PROCESSING.test(e.serverDetail ?? '')) || waited >= PROCESSING_WAIT_LIMIT_MS || env.ctx.signal?.aborted) throw e;
      const pause = Math.min(env.ctx.options.pollIntervalMs * 2 ** n, 10_000, PROCESSING_WAIT_LIMIT_MS - waited);
      env.ctx.reporter.emit({
        code: 'tfe.workspace.state-processing',
        level: 'info',
        message: `NoCodeWorkspace/${p.change.name}: HCP Terraform is still processing the workspace's latest state; safe-delete again in ${formatDuration(pause)}`,
        data: { kind: p.change.kind, name: p.change.name, waitMs: pause },
      });
      await clock.sleep(pause, env.ctx.signal);
    }
  }
}

export async function safeDelete(env: Env, p: PlannedChange, id: string): Promise<ApplyOutcome> {
  try {
    const existed = await safeDeleteOnceProcessed(env, p, id);
    await env.ctx.forget(p.change);
    return outcome(p, 'succeeded', existed ? { code: 'safe-deleted', id } : { code: 'already-gone', id, notFound: true });
  } catch (e) {
    if (isConvergeError(e) && e.code === 'tfe.conflict') {
      // 409: still managing resources, state being processed, or locked (docs/reference/hcp-terraform-api.md §5, GT errors.go).
      const error = new ConvergeError('tfe.workspace.safe-delete-refused', `HCP Terraform refused to safe-delete workspace ${p.change.name}: ${e.serverDetail || '409 Conflict'}`, {
        source: 'remote',
        status: 409,
        cause: e,
        hint: 'destroy its resources first (deletion: destroy queues a destroy run), unlock it, or wait and apply again',
      });
      return outcome(p, 'failed', error.message, { error });
    }
    throw e;
  }
}

export async function deleteWorkspace(env: Env, p: PlannedChange): Promise<ApplyOutcome> {
  const policy = p.change.deletion ?? deletionPolicyOf(p.view);
  if (policy === 'orphan') {
    await env.ctx.forget(p.change);
    return outcome(p, 'succeeded', { code: 'orphaned' });
  }
  const id = p.view.live?.id ?? p.view.record?.id;
  if (!p.view.live || id === undefined) {
    await env.ctx.forget(p.change);
    return outcome(p, 'succeeded', { code: 'already-gone' });
  }
  if (policy === 'destroy') {
    const autoApply = p.view.live.extra.autoApply === true;
    const inFlight = env.ctx.record(p.change)?.inFlight;
    let followed: { result: FollowResult; url: string };
    if (inFlight?.purpose === 'destroy') {
      followed = await resumeRun(env, p, inFlight, autoApply, 'auto');
    } else {
      const run = await env.session.client.runs.createDestroyRun(id, 'converge: deletion policy destroy', { what: `destroy run of workspace ${p.change.name}` });
      const startedAt = new Date().toISOString();
      await env.ctx.setInFlight(p.change, { purpose: 'destroy', runId: run.id, phase: 'initiated', startedAt });
      followed = await followPlainRun(env, p, { workspace: p.change.name, workspaceId: id, runId: run.id, purpose: 'destroy', phase: 'initiated', startedAt, policy: 'auto', autoApply });
    }
    const { result, url } = followed;
    if (result.status !== 'applied' && result.status !== 'no-changes') return runOutcome(p, { step: 'destroy' }, result, url);
    const o = await safeDelete(env, p, id);
    if (o.status === 'succeeded') return { ...o, detail: { code: 'destroyed', id, deleted: o.detail?.code === 'safe-deleted' }, runUrl: url };
    // A refused safe-delete: its error says why, after what was done first.
    const { message: _said, ...failed } = o;
    return { ...failed, detail: { code: 'destroy-run-applied' }, runUrl: url };
  }
  return safeDelete(env, p, id);
}
