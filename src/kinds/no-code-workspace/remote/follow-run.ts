import type { InFlightRun } from '../../../state/types.js';
import type { RunStep } from '../../../plan/codes.js';
import type { ApplyOutcome, PlannedChange } from '../../../providers/provider.js';
import { runUrl } from '../../../providers/tfe/mapping.js';
import { outcome } from '../../../providers/tfe/outcome.js';
import { sweeperFor } from '../../../providers/tfe/run-sweep.js';
import { confirmUnlessConflict, followRun, type FollowResult, type RunPhase } from '../../../providers/tfe/runs.js';
import { newestRun, newestRunOf, type PendingRun } from '../../../providers/tfe/upgrade-driver.js';
import type { WorkspaceWire } from '../../../providers/tfe/wire.js';
import { type Env } from './env.js';

/*
 * Following first runs and destroy runs of workspaces (the runs API), recording each phase in state.
 */



export interface RunTarget {
  workspace: string;
  workspaceId: string;
  runId: string;
  purpose: InFlightRun['purpose'];
  phase: RunPhase;
  startedAt: string;
  toVersion?: string | null;
  policy: 'auto' | 'manual';
  /** The service applies by itself: never confirm (confirming would race it). */
  autoApply: boolean;
}

/** Follows a run through the runs API (first runs and destroy runs), recording each phase. */
export async function followPlainRun(env: Env, p: PlannedChange, t: RunTarget): Promise<{ result: FollowResult; url: string }> {
  const { client, address, organization } = env.session;
  const url = runUrl(address, organization, t.workspace, t.runId);
  const call = { what: `run ${t.runId} of workspace ${t.workspace}` };
  const record = (phase: RunPhase) =>
    env.ctx.setInFlight(p.change, { purpose: t.purpose, runId: t.runId, phase, startedAt: t.startedAt, ...(t.toVersion !== undefined ? { toVersion: t.toVersion } : {}) });
  const result = await followRun({
    workspace: t.workspace,
    runId: t.runId,
    purpose: t.purpose,
    url,
    phase: t.phase,
    policy: t.policy,
    read: () =>
      sweeperFor(client, env.ctx.options.pollIntervalMs).readRun(t.workspaceId, t.runId, async () => {
        const r = await client.runs.readRun(t.runId, call);
        return { status: r.status, confirmable: r.confirmable };
      }),
    // The sweeper paces the reads (one round per interval for every run followed).
    pollDelayMs: () => 0,
    confirm: t.autoApply ? undefined : confirmUnlessConflict(() => client.runs.applyRun(t.runId, `converge: ${t.purpose} confirmed by policy`, call)),
    onPhase: record,
    options: env.ctx.options,
    clock: client.clock,
    reporter: env.ctx.reporter,
    ...(env.ctx.signal ? { signal: env.ctx.signal } : {}),
  });
  if (result.status === 'applied' || result.status === 'no-changes' || (result.status === 'failed' && result.error.code === 'tfe.run.failed')) {
    await env.ctx.setInFlight(p.change, undefined);
  }
  return { result, url };
}

/**
 * How long a created workspace's first run may take to show: HCP Terraform queues it with the creation (reference
 * §2), so one that has not shown after this will not; waiting the whole --run-timeout per workspace for it (issue
 * 14) only delayed the rest.
 */
const FIRST_RUN_APPEARS_MS = 30_000;

/**
 * The first run a workspace creation queued: the create answer's `current-run`, else its `latest-run` (docs/reference/hcp-terraform-api.md §2:
 * the answer may show `current-run: null` while the run is queued), else the workspace read again until it names
 * one. Never the runs list (rationed at 30 a minute, docs/reference/hcp-terraform-runs.md): the reads go through the
 * run sweeper, so many creations followed at once share one sweep of the workspace list.
 */
export async function findFirstRun(env: Env, ws: WorkspaceWire): Promise<string | undefined> {
  const known = newestRunOf(ws);
  if (known !== null) return known;
  const { client } = env.session;
  const clock = client.clock;
  const started = clock.now();
  const limit = Math.min(FIRST_RUN_APPEARS_MS, env.ctx.options.runTimeoutMs);
  let n = 0;
  for (;;) {
    const first = await sweeperFor(client, env.ctx.options.pollIntervalMs).askWorkspace<string | null>(
      ws.id,
      (row) => newestRunOf(row.workspace),
      () => newestRun(client, ws.id, ws.name),
    );
    if (first !== null) return first;
    if (clock.now() - started > limit || env.ctx.signal?.aborted) return undefined;
    await clock.sleep(Math.min(env.ctx.options.pollIntervalMs * 10, env.ctx.options.pollIntervalMs * 2 ** n++), env.ctx.signal);
  }
}

export function runOutcome(p: PlannedChange, after: RunStep, r: FollowResult, url: string): ApplyOutcome {
  switch (r.status) {
    case 'applied':
    case 'no-changes':
      return outcome(p, 'succeeded', { code: 'run-ended', after, run: r.status }, { runUrl: url });
    case 'awaiting-confirmation':
      return outcome(p, 'awaiting-confirmation', { code: 'awaiting-run', after, url }, { runUrl: url });
    case 'failed':
      if (r.error.code === INTERRUPTED) return interruptedOutcome(p, after, url);
      // The error says what failed; the code, what was done before the run.
      return outcome(p, 'failed', { code: 'run-failed', after }, { error: r.error, runUrl: url });
  }
}

/** followRun's code when an interrupt stopped it (runs.ts). */
export const INTERRUPTED = 'tfe.run.interrupted';

/**
 * Converge stopped following a run at an interrupt: the run goes on in HCP Terraform, recorded in flight. Not a
 * failure: a workspace just created is reported created (its run not followed to the end); any other change is
 * `cancelled`.
 */
export function interruptedOutcome(p: PlannedChange, after: RunStep, url: string): ApplyOutcome {
  return outcome(p, after.step === 'created' ? 'succeeded' : 'cancelled', { code: 'run-interrupted', after, url }, { runUrl: url });
}

/** Resumes a provision or destroy run an earlier apply left in flight. */
export async function resumeRun(env: Env, p: PlannedChange, run: InFlightRun, autoApply: boolean, policy: 'auto' | 'manual'): Promise<{ result: FollowResult; url: string }> {
  env.ctx.reporter.emit({
    code: 'tfe.run.resume',
    level: 'info',
    message: `${p.change.name}: resuming ${run.purpose} run ${run.runId} (last seen ${run.phase})`,
    data: { workspace: p.change.name, runId: run.runId, phase: run.phase },
  });
  return followPlainRun(env, p, {
    workspace: p.change.name,
    workspaceId: p.view.live?.id ?? p.view.record?.id ?? '',
    runId: run.runId,
    purpose: run.purpose,
    phase: run.phase,
    startedAt: run.startedAt,
    ...(run.toVersion !== undefined ? { toVersion: run.toVersion } : {}),
    policy,
    autoApply,
  });
}

/**
 * A workspace's first run still in flight that state does not know (the apply that created the workspace was
 * killed before it recorded the run, and the workspace was adopted): recorded as the provision run,
 * so it is followed and confirmed per `upgrade.confirm` like the first run of a workspace converge creates.
 */
export async function adoptFirstRun(env: Env, p: PlannedChange, pending: PendingRun): Promise<InFlightRun> {
  env.ctx.reporter.emit({
    code: 'tfe.run.adopt',
    level: 'warn',
    message: `${p.change.name}: first run ${pending.id} is in flight (${pending.status}) but not in state (an earlier apply was interrupted); following it`,
    data: { workspace: p.change.name, runId: pending.id, phase: pending.status },
  });
  const run: InFlightRun = { purpose: 'provision', runId: pending.id, phase: 'initiated', startedAt: new Date().toISOString() };
  await env.ctx.setInFlight(p.change, run);
  return run;
}
