import type { ApplyBatch, ApplyContext, ApplyOutcome, PlannedChange } from '../../../providers/provider.js';
import { mapLimit } from '../../../async/map-limit.js';
import { failed, outcome } from '../../../providers/tfe/outcome.js';
import type { TfeSession } from '../../../providers/tfe/session.js';
import { addressKey } from '../../../model/kinds.js';
import { rollout } from '../../../providers/tfe/rollout.js';
import { type Env, desiredOf } from './env.js';
import { updateWorkspace } from './update.js';
import { createWorkspace } from './create.js';
import { upgradeWorkspace } from './upgrade.js';
import { deleteWorkspace } from './delete.js';

/*
 * NoCodeWorkspace apply: creates (then follows the first run), settings and variable updates,
 * upgrades driven to completion with a canary, and deletes per policy. State is saved after each
 * remote change; runs in flight are recorded at each phase so a rerun resumes them.
 */

// --- batch -----------------------------------------------------------------------------------

/** Runs one change; once the apply is stopped (a state write failed, the state lock was lost) nothing new starts. */
async function guard(env: Env, p: PlannedChange, fn: () => Promise<ApplyOutcome>): Promise<ApplyOutcome> {
  if (env.ctx.signal?.aborted) return outcome(p, 'skipped', { code: 'cancelled' });
  const run = async () => {
    try {
      return await fn();
    } catch (e) {
      return failed(p, e);
    }
  };
  // Tracked: its start and end are reported as they happen (ApplyContext.track).
  return env.ctx.track ? env.ctx.track(p, run) : run();
}

export async function applyWorkspaces(batch: ApplyBatch, session: TfeSession, ctx: ApplyContext): Promise<ApplyOutcome[]> {
  const env: Env = { session, ctx, all: batch.all };
  const concurrency = Math.max(1, ctx.options.concurrency);
  if (batch.phase === 'delete') {
    return mapLimit(batch.changes, concurrency, (p) => guard(env, p, () => deleteWorkspace(env, p)));
  }
  const writes = batch.changes.filter((p) => p.change.action === 'create' || p.change.action === 'update');
  const upgrades = batch.changes.filter((p) => p.change.action === 'upgrade');
  const out = await mapLimit(writes, concurrency, (p) =>
    guard(env, p, async () => {
      const d = desiredOf(p);
      if (!d) return outcome(p, 'failed', { code: 'internal-no-manifest' });
      return p.change.action === 'create' ? createWorkspace(env, p, d) : updateWorkspace(env, p, d);
    }),
  );
  // The canary goes first: a run already in flight (resuming it is the natural canary), else a workspace
  // marked `upgrade.canary: true`, else the first by name (the changes come sorted).
  const rank = (p: PlannedChange) => (p.view.record?.inFlight !== undefined ? 2 : desiredOf(p)?.spec.upgrade?.canary === true ? 1 : 0);
  const ordered = [...upgrades].sort((a, b) => rank(b) - rank(a));
  const upgraded = await rollout(ordered, {
    concurrency,
    run: (p) =>
      guard(env, p, async () => {
        const d = desiredOf(p);
        if (!d) return outcome(p, 'failed', { code: 'internal-no-manifest' });
        return upgradeWorkspace(env, p, d);
      }),
    isFailure: (o) => o.status === 'failed',
    causeOf: (o) => o.error?.code,
    skip: (p, reason) => outcome(p, 'skipped', reason),
    nameOf: (p) => p.change.name,
    groupOf: (p) => {
      const module = desiredOf(p)?.spec.module ?? '';
      const m = batch.all.get(addressKey({ kind: 'NoCodeModule', name: module }))?.desired?.object;
      return { name: module, limits: m?.kind === 'NoCodeModule' ? (m.spec.upgrade ?? {}) : {} };
    },
  });
  return [...out, ...upgraded];
}
