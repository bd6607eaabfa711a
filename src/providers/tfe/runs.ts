import { realClock, type Clock } from '../../async/clock.js';
import { ConvergeError, isConvergeError } from '../../diagnostics/errors.js';
import type { Reporter } from '../../model/events.js';
import type { ApplyOptions } from '../provider.js';
import type { RunState } from './run-sweep.js';
import type { WorkspaceWire } from './wire.js';

/*
 * The run follower: follows one run (a first run, an upgrade run, a destroy run) until it ends, confirming it
 * once its plan is ready when the policy says so. Its reads go through the run sweeper (run-sweep.ts), which
 * reads many runs with one request. Run states per reference
 * docs/reference/hcp-terraform-run-states.md; finals: applied, planned_and_finished,
 * policy_soft_failed, discarded, errored, canceled, force_canceled.
 */

export type RunClass =
  /** Still moving: queued, planning, applying, checks running. */
  | 'running'
  /** The plan is ready and waits for a confirmation. */
  | 'confirmable'
  /** Applied: done. */
  | 'applied'
  /** The plan found nothing to change (`planned_and_finished`): done without confirming. */
  | 'no-changes'
  /** Waits for a person in HCP Terraform: policy_override, post_plan_awaiting_decision, pre_plan_awaiting_decision. */
  | 'needs-decision'
  /** Ended without applying: errored, canceled, force_canceled, discarded, policy_soft_failed, … */
  | 'failed'
  /** A status no list converge knows names (a state added to the service later): followed only for a bounded wait. */
  | 'unknown';

const FAILED = new Set(['errored', 'canceled', 'force_canceled', 'discarded', 'policy_soft_failed']);
/**
 * Plan finished and possibly waiting for `apply` (RUN: planned, cost_estimated, policy_checked;
 * post_plan_completed after post-plan run tasks). Used only when the service does not say
 * `actions.is-confirmable`; a confirm the service refuses (409) just goes on polling.
 */
export const CONFIRMABLE = new Set(['planned', 'cost_estimated', 'policy_checked', 'post_plan_completed', 'tf_policy_checked']);
/**
 * Needs a person, and will not move by itself: a soft-mandatory policy failed and waits for an override,
 * or a run task's result waits for a decision (docs/reference/hcp-terraform-api.md §3). Neither is final nor confirmable:
 * converge stops following, says so, keeps the run recorded, and the next apply resumes it.
 */
const NEEDS_DECISION: Readonly<Record<string, string>> = {
  policy_override: 'a soft-mandatory policy check failed and waits for an override in HCP Terraform (converge does not override policies)',
  tf_policy_override: 'a policy check failed and waits for an override in HCP Terraform (converge does not override policies)',
  post_plan_awaiting_decision: 'a run task result needs a decision in HCP Terraform (override or cancel the run there)',
  pre_plan_awaiting_decision: 'a pre-plan run task result needs a decision in HCP Terraform (override or cancel the run there)',
};

/** Why a run held in a state of NEEDS_DECISION waits, for messages (undefined for any other status). */
export function decisionNeeded(status: string): string | undefined {
  return NEEDS_DECISION[status];
}

/**
 * Every run status converge knows (docs/reference/hcp-terraform-run-states.md: the Runs API's run states, go-tfe
 * `run.go` RunStatus, the OpenAPI run-status enum). Any other status is `unknown`: not assumed to move by itself.
 */
const MOVING = new Set([
  'pending', 'fetching', 'fetching_completed', 'pre_plan_running', 'pre_plan_completed', 'queuing', 'plan_queued',
  'planning', 'cost_estimating', 'policy_checking', 'confirmed', 'post_plan_running', 'apply_queued', 'queuing_apply',
  'applying', 'pre_apply_running', 'pre_apply_completed', 'post_apply_running', 'post_apply_completed',
]);
/** A saved-plan run ends here (RUN); converge never starts one, so seeing it means someone else's run. */
const SAVED = 'planned_and_saved';

/**
 * Waiting for capacity, not stuck: HCP Terraform holds runs beyond the organization's concurrency in these states
 * (Runs API, run states: `queuing`, `plan_queued` "waiting for its backend services to start the plan",
 * `apply_queued`). Time spent here does not count toward --run-timeout. `pending` does count: a run pending behind
 * another run of its workspace may wait for something that never comes (a run nobody confirms).
 */
export const QUEUED = new Set(['queuing', 'plan_queued', 'apply_queued', 'queuing_apply']);

export function classifyRun(status: string, confirmable: boolean | null = null): RunClass {
  if (status === 'applied') return 'applied';
  if (status === 'planned_and_finished') return 'no-changes';
  if (status in NEEDS_DECISION) return 'needs-decision';
  if (FAILED.has(status) || status === SAVED) return 'failed';
  // The runs API says so directly; the upgrade status document carries only the state.
  if (confirmable === true) return 'confirmable';
  if (confirmable === null && CONFIRMABLE.has(status)) return 'confirmable';
  return MOVING.has(status) || CONFIRMABLE.has(status) ? 'running' : 'unknown';
}

/**
 * How long a run may sit in one status converge does not know before it is reported by name: twenty poll
 * intervals, at most a minute, never past --run-timeout. Such a status may be one that waits for a person.
 */
export function unknownStatusWaitMs(options: Pick<ApplyOptions, 'pollIntervalMs' | 'runTimeoutMs'>): number {
  return Math.min(options.runTimeoutMs, 60_000, Math.max(1, options.pollIntervalMs) * 20);
}

/**
 * A run's stage for people: the states it passes through grouped into the few that matter to someone watching a
 * log (a line per stage, not per state: a run passes some twenty states).
 */
export function runStage(status: string, cls: RunClass): string {
  if (cls !== 'running') return cls === 'confirmable' ? 'planned' : cls;
  if (status === 'pending' || status === 'queuing' || status === 'plan_queued') return 'queued';
  return APPLYING.has(status) ? 'applying' : 'planning';
}

const APPLYING = new Set(['confirmed', 'apply_queued', 'queuing_apply', 'applying', 'pre_apply_running', 'pre_apply_completed', 'post_apply_running', 'post_apply_completed']);

export type RunPhase = 'initiated' | 'planned' | 'confirmed';

export interface FollowOptions {
  /** For events and messages: the workspace name. */
  workspace: string;
  runId: string;
  purpose: 'provision' | 'upgrade' | 'destroy';
  /** URL of the run for people. */
  url: string;
  /** Where converge last saw the run (a resume starts there; `confirmed` never confirms again). */
  phase: RunPhase;
  /** Reads the run's current state (a run sweep, or the run alone). */
  read(): Promise<RunState>;
  /** Wait before the read after `n` reads; default pollDelay. A sweep paces itself: 0. */
  pollDelayMs?: (n: number) => number;
  /**
   * Confirms the plan; false when the service says the run cannot be confirmed (yet): polling goes
   * on. Undefined when the service applies by itself (auto-apply).
   */
  confirm: (() => Promise<boolean>) | undefined;
  /** `manual` stops once the plan is ready: the run waits for a person. */
  policy: 'auto' | 'manual';
  /** Called at each new phase, before going on: the caller records it (ctx.setInFlight). */
  onPhase(phase: RunPhase): Promise<void>;
  options: ApplyOptions;
  reporter: Reporter;
  signal?: AbortSignal;
  /** Time for elapsed times and waits between reads; default the real clock. */
  clock?: Clock;
}

export type FollowResult =
  /** `workspace`: as a sweep saw it with the finished run (absent when the run was read alone). */
  | { status: 'applied' | 'no-changes'; finalState: string; elapsedMs: number; workspace?: WorkspaceWire }
  | { status: 'awaiting-confirmation'; finalState: string; elapsedMs: number }
  | { status: 'failed'; finalState: string; elapsedMs: number; error: ConvergeError };

/** Poll interval after `n` polls: starts at pollIntervalMs, grows by half each time, capped at 10×. */
export function pollDelay(options: Pick<ApplyOptions, 'pollIntervalMs'>, n: number): number {
  const base = Math.max(1, options.pollIntervalMs);
  return Math.min(base * 10, Math.round(base * Math.pow(1.5, n)));
}

/**
 * A confirm that answers false on 409: the run is not confirmable (yet, or any more: someone else
 * confirmed it). RUN: `actions/apply` answers 409 when the transition is not allowed.
 */
export function confirmUnlessConflict(fn: () => Promise<void>): () => Promise<boolean> {
  return async () => {
    try {
      await fn();
      return true;
    } catch (e) {
      if (isConvergeError(e) && e.code === 'tfe.conflict') return false;
      throw e;
    }
  };
}

export async function followRun(o: FollowOptions): Promise<FollowResult> {
  const clock = o.clock ?? realClock;
  const now = () => clock.now();
  const wait = (ms: number, signal?: AbortSignal) => clock.sleep(ms, signal);
  const started = now();
  let phase = o.phase;
  let lastStatus: string | undefined;
  let polls = 0;
  const elapsed = () => now() - started;
  // Time the run waited in the organization's queue: not held against --run-timeout.
  let queuedMs = 0;
  let lastReadAt = started;
  let lastQueued = false;
  // When the run entered the unknown status it is in (undefined: in a known one).
  let unknownSince: number | undefined;
  let lastUnknown: string | undefined;
  const activeMs = () => elapsed() - queuedMs;
  const delay = (n: number) => (o.pollDelayMs ? o.pollDelayMs(n) : pollDelay(o.options, n));
  const fail = (code: string, message: string, state: string, hint?: string): FollowResult => ({
    status: 'failed',
    finalState: state,
    elapsedMs: elapsed(),
    error: new ConvergeError(code, message, { source: 'remote', ...(hint ? { hint } : {}) }),
  });
  /**
   * A read or confirm that failed after the HTTP layer's own retries (a run of 5xx or resets): the run goes on
   * in HCP Terraform regardless, so a retryable failure is met by polling again until --run-timeout, never by
   * failing the workspace (seven failed attempts at one status read failed an upgrade).
   */
  const transient = (e: unknown, doing: 'reading' | 'confirming'): boolean => {
    if (!isConvergeError(e) || !e.retryable || activeMs() >= o.options.runTimeoutMs || o.signal?.aborted) return false;
    o.reporter.emit({
      code: 'tfe.run.poll-failed',
      level: 'warn',
      message: `${o.workspace}: ${doing} ${o.purpose} run ${o.runId} failed (${e.message}); polling again`,
      data: { workspace: o.workspace, runId: o.runId, purpose: o.purpose, code: e.code },
    });
    return true;
  };
  const what = `${o.purpose === 'provision' ? 'first run' : o.purpose === 'upgrade' ? 'upgrade run' : 'destroy run'} ${o.runId} of workspace ${o.workspace}`;

  for (;;) {
    if (o.signal?.aborted) {
      return fail('tfe.run.interrupted', `stopped following the ${what} (${o.url}): converge was interrupted; a rerun resumes it`, lastStatus ?? 'unknown');
    }
    let run: RunState;
    try {
      run = await o.read();
    } catch (e) {
      if (!transient(e, 'reading')) throw e;
      await wait(pollDelay(o.options, polls), o.signal);
      polls += 1;
      continue;
    }
    const readAt = now();
    if (lastQueued) queuedMs += readAt - lastReadAt;
    lastReadAt = readAt;
    lastQueued = QUEUED.has(run.status);
    if (run.status !== lastStatus) {
      lastStatus = run.status;
      o.reporter.emit({
        code: 'tfe.run.phase',
        level: 'info',
        message: `${o.workspace}: ${o.purpose} run ${o.runId} is ${run.status}`,
        data: { workspace: o.workspace, runId: o.runId, phase: run.status, stage: runStage(run.status, classifyRun(run.status, run.confirmable)), elapsedMs: elapsed(), purpose: o.purpose },
      });
    }
    const cls = classifyRun(run.status, run.confirmable);
    unknownSince = cls !== 'unknown' ? undefined : run.status === lastUnknown ? unknownSince : readAt;
    lastUnknown = cls === 'unknown' ? run.status : undefined;
    switch (cls) {
      case 'applied':
      case 'no-changes':
        return { status: cls, finalState: run.status, elapsedMs: elapsed(), ...(run.workspace ? { workspace: run.workspace } : {}) };
      case 'failed':
        return fail('tfe.run.failed', `the ${what} ended in ${run.status}: ${o.url}`, run.status, 'open the run to see why, fix the cause, then apply again');
      case 'needs-decision':
        // Not a failure of the run: it stays recorded in flight (only tfe.run.failed clears it).
        return fail(
          'tfe.run.needs-decision',
          `the ${what} waits for a decision in HCP Terraform (${run.status}): ${o.url}`,
          run.status,
          `${NEEDS_DECISION[run.status] ?? 'it needs a person'}; then run apply again: it resumes this run`,
        );
      case 'confirmable':
        if (phase === 'initiated') {
          phase = 'planned';
          await o.onPhase('planned');
        }
        if (phase === 'confirmed' && o.confirm) {
          // A run that waits for its confirmation was not confirmed, whatever an earlier apply recorded (a
          // lost confirm read back as done): confirm it now rather than wait for --run-timeout.
          o.reporter.emit({
            code: 'tfe.run.unconfirmed',
            level: 'warn',
            message: `${o.workspace}: ${o.purpose} run ${o.runId} was recorded as confirmed but still waits for a confirmation (${run.status})`,
            data: { workspace: o.workspace, runId: o.runId, phase: run.status, purpose: o.purpose },
          });
          phase = 'planned';
          await o.onPhase('planned');
        }
        if (phase === 'planned' && o.confirm) {
          if (o.policy === 'manual') return { status: 'awaiting-confirmation', finalState: run.status, elapsedMs: elapsed() };
          let confirmed: boolean;
          try {
            confirmed = await o.confirm();
          } catch (e) {
            // The next poll tells: confirmable again (send it again) or confirmed after all.
            if (!transient(e, 'confirming')) throw e;
            confirmed = false;
          }
          if (confirmed) {
            phase = 'confirmed';
            await o.onPhase('confirmed');
            polls = 0;
            continue;
          }
        }
        break;
      case 'running':
        break;
      case 'unknown':
        if (readAt - (unknownSince ?? readAt) >= unknownStatusWaitMs(o.options)) {
          // Not a failure of the run either: it stays recorded in flight, and a rerun follows it again.
          return fail(
            'tfe.run.unknown-status',
            `the ${what} has been in status ${run.status}, which converge does not know, for ${Math.round((readAt - (unknownSince ?? readAt)) / 1000)}s: ${o.url}`,
            run.status,
            'open the run in HCP Terraform: it may wait for a person (decide there), or converge may need an update; then run apply again: it resumes this run',
          );
        }
        break;
    }
    if (activeMs() >= o.options.runTimeoutMs) {
      return fail(
        'tfe.run.timeout',
        `the ${what} did not finish within ${Math.round(o.options.runTimeoutMs / 1000)}s (last seen ${run.status}): ${o.url}`,
        run.status,
        'it may still finish: a later apply resumes following it; raise --run-timeout for slow runs',
      );
    }
    await wait(Math.min(delay(polls), Math.max(0, o.options.runTimeoutMs - activeMs())), o.signal);
    polls += 1;
  }
}
