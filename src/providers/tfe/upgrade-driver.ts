import { ConvergeError, isConvergeError } from '../../diagnostics/errors.js';
import type { UpgradeEnd } from '../../plan/codes.js';
import type { InFlightRun } from '../../state/types.js';
import type { ApplyContext } from '../provider.js';
import type { TfeClient } from './client.js';
import { runUrl } from './mapping.js';
import type { RunWire, WorkspaceWire } from './wire.js';
import { sweeperFor, type RunState } from './run-sweep.js';
import { classifyRun, CONFIRMABLE, confirmUnlessConflict, decisionNeeded, followRun, type RunPhase } from './runs.js';

/*
 * Drives one no-code workspace upgrade to completion (docs/reference/hcp-terraform-api.md §3): initiate → poll
 * the status until the plan is done → confirm → poll until applied. The upgrade id is a run id.
 * Every phase is recorded in state (ctx.setInFlight) before going on, so a killed apply resumes
 * polling the same run instead of initiating another.
 */

export interface UpgradeTarget {
  workspace: string;
  workspaceId: string;
  moduleId: string;
  policy: 'auto' | 'manual';
  toVersion: string | null;
  /** The run a previous apply started and did not see finish. */
  inFlight: InFlightRun | undefined;
  /**
   * The workspace's run in flight that state does not know, when the caller already looked (pendingRun):
   * null = none. Undefined = not looked yet: the driver looks.
   */
  pending?: PendingRun | null;
  /**
   * The workspace's newest run before the upgrade, when a sweep or the pending check saw it: the initiation's
   * read-back then needs no runs list of its own (undefined: it reads one).
   */
  newestRunId?: string | null | undefined;
}

/** A run in flight that state does not know about (pendingRun). */
export interface PendingRun {
  id: string;
  status: string;
  /** The workspace's only run: the one its creation queued (docs/reference/hcp-terraform-api.md §2), never an upgrade. */
  first: boolean;
  /**
   * It waits for a person in HCP Terraform (policy_override, …_awaiting_decision): it will not move by itself,
   * and a run started now would queue behind it and apply later, unattended (docs/reference/hcp-terraform-run-states.md).
   */
  needsDecision?: boolean;
}

export type DriveResult =
  /** `adopted`: the run followed was found in flight, not started here: it may not be the upgrade (check the version). */
  | { status: 'succeeded'; ended: UpgradeEnd; runId: string | null; url: string | null; adopted: boolean; workspace?: WorkspaceWire }
  | { status: 'awaiting-confirmation'; runId: string; url: string }
  | { status: 'failed'; error: ConvergeError; runId: string | null; url: string | null };

export interface DriverDeps {
  client: TfeClient;
  address: string;
  organization: string;
  ctx: ApplyContext;
  setInFlight(run: InFlightRun | undefined): Promise<void>;
}

export async function driveUpgrade(t: UpgradeTarget, deps: DriverDeps): Promise<DriveResult> {
  const { client, ctx } = deps;
  const call = { what: `upgrade of workspace ${t.workspace}` };
  let runId: string;
  let phase: RunPhase;
  let startedAt: string;
  let adopted: string | null = null;
  if (t.inFlight && t.inFlight.purpose === 'upgrade') {
    runId = t.inFlight.runId;
    phase = t.inFlight.phase;
    startedAt = t.inFlight.startedAt;
    ctx.reporter.emit({
      code: 'tfe.run.resume',
      level: 'info',
      message: `${t.workspace}: resuming upgrade run ${runId} (last seen ${phase})`,
      data: { workspace: t.workspace, runId, phase },
    });
  } else if ((adopted = await unrecordedUpgradeInFlight(client, t, ctx.options.pollIntervalMs)) !== null) {
    if (t.pending?.needsDecision) {
      // Never start a run behind one that waits for a person: it would queue, outlive --run-timeout, and apply
      // later unattended once someone decides. Nothing is recorded: the run is not converge's.
      const url = runUrl(deps.address, deps.organization, t.workspace, adopted);
      const error = new ConvergeError(
        'tfe.run.blocked-by-decision',
        `workspace ${t.workspace}: run ${adopted} waits for a decision in HCP Terraform (${t.pending.status}): ${url}; converge starts no upgrade behind it`,
        { source: 'remote', hint: `${decisionNeeded(t.pending.status) ?? 'it needs a person'}; then run apply again` },
      );
      return { status: 'failed', error, runId: null, url };
    }
    // A killed apply can initiate the upgrade and die before recording it. A second initiation would
    // queue behind that run (runs queue per workspace, RUN) and wait forever while it waits for a
    // confirmation nobody sends: follow the run in flight instead (found by the crash-safety suite).
    runId = adopted;
    phase = 'initiated';
    startedAt = new Date().toISOString();
    ctx.reporter.emit({
      code: 'tfe.run.adopt',
      level: 'warn',
      message: `${t.workspace}: run ${runId} is in flight but not in state (an earlier apply was interrupted, or someone queued it); following it instead of stacking another upgrade behind it`,
      data: { workspace: t.workspace, runId },
    });
    await deps.setInFlight({ purpose: 'upgrade', runId, phase, startedAt, toVersion: t.toVersion });
  } else {
    const started = await client.runs.initiateUpgrade(t.moduleId, t.workspaceId, `converge: upgrade to ${t.toVersion ?? 'the module’s pinned version'}`, call, t.newestRunId);
    let id = started.runId;
    if (id === null && started.status !== null && started.message === null) {
      // A plan started (it has a state) but the answer carries no id (go-tfe's WorkspaceUpgrade
      // has none, docs/reference/hcp-terraform-api.md §3): the upgrade run is the workspace's newest run.
      id = await newestRun(client, t.workspaceId, t.workspace);
    }
    if (id === null) {
      // Nothing pending: the service answers with only a message (docs/reference/hcp-terraform-api.md §3, go-tfe WorkspaceUpgrade.Message).
      return { status: 'succeeded', ended: { run: 'none', serviceMessage: started.message }, runId: null, url: null, adopted: false };
    }
    runId = id;
    phase = 'initiated';
    startedAt = new Date().toISOString();
    await deps.setInFlight({ purpose: 'upgrade', runId, phase, startedAt, toVersion: t.toVersion });
  }
  const url = runUrl(deps.address, deps.organization, t.workspace, runId);
  const readAlone = async (): Promise<RunState> => {
    let status: string | null = null;
    try {
      status = (await client.runs.upgradeStatus(t.moduleId, t.workspaceId, runId, call)).status;
    } catch (e) {
      if (!isConvergeError(e) || e.code !== 'tfe.not-found') throw e;
    }
    // The status document carries only the state. When it looks ready to confirm, ask the runs
    // API (the upgrade id is a run id, docs/reference/hcp-terraform-api.md §3) whether it really is: a read instead of a
    // confirm the service would refuse with 409 (`planned` is confirmable only without cost
    // estimation or policy checks, RUN).
    if (status !== null && !CONFIRMABLE.has(status)) return { status, confirmable: null };
    try {
      const run = await client.runs.readRun(runId, { what: `run ${runId} of workspace ${t.workspace}` });
      return { status: run.status, confirmable: run.confirmable };
    } catch (e) {
      if (status === null || !isConvergeError(e) || e.code !== 'tfe.not-found') throw e;
      return { status, confirmable: null };
    }
  };
  const result = await followRun({
    workspace: t.workspace,
    runId,
    purpose: 'upgrade',
    url,
    phase,
    policy: t.policy,
    // The sweeper reads the run with the workspace list; alone (few runs followed, or no longer current) as before.
    read: () => sweeperFor(client, ctx.options.pollIntervalMs).readRun(t.workspaceId, runId, readAlone),
    pollDelayMs: () => 0,
    confirm: confirmUnlessConflict(() => client.runs.confirmUpgrade(t.moduleId, t.workspaceId, runId, 'converge: confirmed by policy upgrade.confirm=auto', call)),
    onPhase: (p) => deps.setInFlight({ purpose: 'upgrade', runId, phase: p, startedAt, toVersion: t.toVersion }),
    options: ctx.options,
    reporter: ctx.reporter,
    clock: client.clock,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  });
  switch (result.status) {
    case 'applied':
    case 'no-changes':
      await deps.setInFlight(undefined);
      return {
        status: 'succeeded',
        ended: result.status === 'applied' ? { run: 'applied' } : { run: 'no-changes', finalState: result.finalState },
        runId,
        url,
        adopted: adopted !== null,
        ...(result.workspace ? { workspace: result.workspace } : {}),
      };
    case 'awaiting-confirmation':
      return { status: 'awaiting-confirmation', runId, url };
    case 'failed':
      // A run that ended is forgotten (a rerun starts a new upgrade); one still going (timeout,
      // interrupted) stays recorded so a rerun resumes it.
      if (result.error.code === 'tfe.run.failed') await deps.setInFlight(undefined);
      return { status: 'failed', error: result.error, runId, url };
  }
}

/**
 * The workspace's newest run when it has not ended (and is not a destroy run), else null; with the id of that newest
 * run. Read from the workspace, never from the runs list, which HCP Terraform rations at 30 a minute
 * (docs/reference/hcp-terraform-runs.md): its `latest-run` names the newest run, which may wait pending behind
 * `current-run`; the current run comes included (`include=current_run`), any other run is read by id
 * (`GET /runs/:id`). A run in flight is then asked whether it is the workspace's only run (isOnlyRun).
 * `known`: the workspace and its current run as a read already saw them (no request for those).
 */
export async function pendingRun(client: TfeClient, workspaceId: string, workspace: string, known?: { workspace: WorkspaceWire; current: RunWire | null }): Promise<PendingCheck> {
  const seen = known ?? (await client.workspaces.readWorkspaceWithCurrentRun(workspaceId, { what: `workspace ${workspace}` }));
  const ws = seen.workspace;
  if (ws.latestRunId === undefined) {
    // A service that does not send `latest-run` (HCP Terraform does): only its runs list says what is newest.
    const runs = await client.runs.listRuns(workspaceId, { what: `runs of workspace ${workspace}` });
    return { pending: pendingOf(runs[0], runs.length === 1), newestRunId: runs[0]?.id ?? null };
  }
  const latest = ws.latestRunId;
  if (latest === null) return { pending: null, newestRunId: null };
  const run = seen.current?.id === latest ? seen.current : await client.runs.readRun(latest, { what: `run ${latest} of workspace ${workspace}` });
  const pending = pendingOf(run, false);
  if (pending !== null) pending.first = await isOnlyRun(client, ws, run, workspace);
  return { pending, newestRunId: latest };
}

/**
 * How long after its workspace the run a creation queued is created, at most: the create request queues it
 * (docs/reference/hcp-terraform-api.md §2), so a run created later than this came from another request and is not the first.
 */
export const FIRST_RUN_WINDOW_MS = 5 * 60_000;

/**
 * Whether `run` (the workspace's newest, in flight) is its only run: the first run its creation queued. An older run
 * that is still the current one, or a run created well after the workspace, says no without a request. Only a run
 * in flight that state does not know, created with its workspace (an apply killed after a create), is checked
 * against the runs list: two runs at most, through the run lists' own ration.
 */
async function isOnlyRun(client: TfeClient, ws: WorkspaceWire, run: RunWire, workspace: string): Promise<boolean> {
  if (ws.currentRunId !== null && ws.currentRunId !== run.id) return false;
  const made = run.createdAt ? Date.parse(run.createdAt) : NaN;
  const wsMade = ws.createdAt ? Date.parse(ws.createdAt) : NaN;
  if (made - wsMade > FIRST_RUN_WINDOW_MS) return false;
  return (await client.runs.listRuns(ws.id, { what: `runs of workspace ${workspace}` }, 2)).length === 1;
}

function pendingOf(newest: RunWire | undefined, first: boolean): PendingRun | null {
  if (!newest || newest.isDestroy) return null;
  const c = classifyRun(newest.status, newest.confirmable);
  if (c === 'needs-decision') return { id: newest.id, status: newest.status, first, needsDecision: true };
  return c === 'running' || c === 'confirmable' || c === 'unknown' ? { id: newest.id, status: newest.status, first } : null;
}

/** pendingRun, and the id of the workspace's newest run when known (undefined: not known). */
export interface PendingCheck {
  pending: PendingRun | null;
  newestRunId: string | null | undefined;
}

/**
 * pendingRun, answered by the next run sweep when it can: a workspace whose current run has ended (or that has
 * none) and whose latest run is that same run has nothing in flight, without a request of its own. Anything
 * else is asked alone (pendingRun: the workspace with its current run, and the latest run by id): a run in flight
 * (is it the workspace's first?), and a newer run than the current one, which waits `pending` behind it and
 * becomes current only when it starts (RUN; the sweep gap: the sweep took "current run ended" for "nothing
 * pending" and stacked an upgrade on such a run).
 */
export function sweptPendingRun(client: TfeClient, workspaceId: string, workspace: string, intervalMs: number): Promise<PendingCheck> {
  return sweeperFor(client, intervalMs).askWorkspace<PendingCheck>(
    workspaceId,
    (row) => (settledRuns(row.workspace, row.run) ? { pending: null, newestRunId: row.workspace.currentRunId } : undefined),
    () => pendingRun(client, workspaceId, workspace),
  );
}

/**
 * The workspace shows every run of it ended: its current run (if any, `current` as included with it) is final and
 * is its latest. Without `latest-run` in the answer whether a newer run waits is not known: false.
 */
export function settledRuns(workspace: WorkspaceWire, current: RunWire | null | undefined): boolean {
  const { currentRunId, latestRunId } = workspace;
  if (latestRunId === undefined || latestRunId !== currentRunId) return false;
  if (currentRunId === null) return true;
  return current != null && current.id === currentRunId && isFinal(current.status);
}

function isFinal(status: string): boolean {
  const c = classifyRun(status, false);
  return c !== 'running' && c !== 'confirmable' && c !== 'needs-decision' && c !== 'unknown';
}

/**
 * A run in flight that may be the upgrade a killed apply initiated. The workspace's first run never is
 * (following it as the upgrade reported "upgraded" while the workspace stayed where it was); the
 * caller follows that one as the first run before upgrading. Whether another run was the upgrade is known
 * only once it applied: the caller checks the version the workspace then runs.
 */
async function unrecordedUpgradeInFlight(client: TfeClient, t: UpgradeTarget, intervalMs: number): Promise<string | null> {
  if (t.pending !== undefined) return t.pending && !t.pending.first ? t.pending.id : null;
  const check = await sweptPendingRun(client, t.workspaceId, t.workspace, intervalMs);
  t.newestRunId = check.newestRunId;
  t.pending = check.pending;
  return check.pending && !check.pending.first ? check.pending.id : null;
}

/**
 * The workspace's newest run: its `latest-run` (one `GET /workspaces/:id`, never the rationed runs list), else, for
 * a service that does not send `latest-run`, its runs list, else its `current-run`.
 */
export async function newestRun(client: TfeClient, workspaceId: string, workspace: string): Promise<string | null> {
  const ws = await client.workspaces.readWorkspace(workspaceId, { what: `workspace ${workspace}` });
  return newestRunOf(ws) ?? (ws.latestRunId === undefined ? await listedNewestRun(client, ws, workspace) : null);
}

/** What the workspace document names as its newest run: `latest-run`, else (not sent) `current-run`. */
export function newestRunOf(ws: WorkspaceWire): string | null {
  return ws.latestRunId ?? ws.currentRunId;
}

async function listedNewestRun(client: TfeClient, ws: WorkspaceWire, workspace: string): Promise<string | null> {
  try {
    return (await client.runs.listRuns(ws.id, { what: `runs of workspace ${workspace}` }, 1))[0]?.id ?? ws.currentRunId;
  } catch (e) {
    if (!isConvergeError(e) || e.code !== 'tfe.not-found') throw e;
    return ws.currentRunId;
  }
}
