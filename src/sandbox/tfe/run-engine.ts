import type { Clock, ClockTimer } from '../../async/clock.js';
import { conflict } from './errors.js';
import { FINAL_RUN_STATES, HELD_RUN_STATES, type Run, type RunKind, type Store, type Workspace } from './model.js';

/**
 * Runs advance through the real run states (docs/reference/hcp-terraform-api.md §3, RUN) on timers, one step every
 * `stepDelayMs`:
 *   pending → plan_queued → planning → planned → cost_estimating → cost_estimated
 *     → (auto-apply) apply_queued → applying → applied
 *     → (otherwise) waits, confirmable, until `actions/apply` or the upgrade confirm: confirmed → apply_queued → …
 * Outcomes queued with the control API: `errored` and `canceled` end the run at planning, `no-changes` ends it
 * `planned_and_finished`, `discarded` discards it once it is waiting for confirmation.
 * One run at a time per workspace: a run holds the workspace from plan_queued until it is final, and later runs
 * stay `pending` behind it (RUN: runs queue per workspace).
 */
/**
 * The phases that take one of the organization's concurrent run slots. HCP Terraform runs at most the organization's
 * concurrency at once; a run beyond it waits at `plan_queued` ("waiting for its backend services to start the
 * plan", Runs API run states) or `apply_queued` until a slot frees.
 */
const HOLDS_SLOT = new Set(['planning', 'applying']);

export class RunEngine {
  private readonly timers = new Set<ClockTimer>();
  private stopped = false;
  /** The organization's concurrent runs (Infinity: no limit, the default). */
  private concurrency = Infinity;
  /** Runs waiting for a slot, oldest first, with the phase they enter when they get one. */
  private readonly slotQueue: { run: Run; next: string; gen: number }[] = [];

  constructor(
    private readonly store: Store,
    private stepDelayMs: number,
    private readonly stateProcessingMs: number,
    /** Time for run steps and state processing; the simulator's other parts read it here too. */
    readonly clock: Clock,
  ) {}

  setStepDelay(ms: number): void {
    this.stepDelayMs = Math.max(0, ms);
  }

  get stepDelay(): number {
    return this.stepDelayMs;
  }

  /** The organization's concurrency: runs beyond it stay queued (`plan_queued`, `apply_queued`). */
  setConcurrency(n: number): void {
    this.concurrency = n > 0 ? n : Infinity;
    this.startQueued();
  }

  private busySlots(): number {
    let n = 0;
    for (const r of this.store.runs.values()) if (HOLDS_SLOT.has(r.status) && this.store.workspaces.has(r.workspaceId)) n++;
    return n;
  }

  /** Gives free slots to the runs that waited longest. */
  private startQueued(): void {
    while (this.slotQueue.length > 0 && this.busySlots() < this.concurrency) {
      const q = this.slotQueue.shift() as { run: Run; next: string; gen: number };
      if (q.run.generation === q.gen && this.store.workspaces.has(q.run.workspaceId)) this.set(q.run, q.next);
    }
  }

  /** Runs a callback one step from now unless the simulator stopped. */
  later(fn: () => void, ms = this.stepDelayMs): void {
    if (this.stopped) return;
    const t = this.clock.setTimeout(() => {
      this.timers.delete(t);
      if (!this.stopped) fn();
    }, ms);
    this.timers.add(t);
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers) this.clock.clearTimer(t);
    this.timers.clear();
  }

  create(ws: Workspace, opts: { kind: RunKind; isDestroy: boolean; message: string; autoApply: boolean }): Run {
    const now = new Date().toISOString();
    const outcome = this.store.nextOutcomes.get(ws.name) ?? 'success';
    this.store.nextOutcomes.delete(ws.name);
    const run: Run = {
      id: this.store.ids.next('run'),
      workspaceId: ws.id,
      kind: opts.kind,
      status: 'pending',
      timestamps: {},
      isDestroy: opts.isDestroy,
      hasChanges: false,
      autoApply: opts.autoApply,
      message: opts.message,
      createdAt: now,
      version: ws.noCode ? (opts.kind === 'upgrade' ? (this.store.noCodeModules.get(ws.noCode.moduleId)?.versionPin ?? ws.noCode.version) : ws.noCode.version) : null,
      outcome,
      started: false,
      generation: 0,
    };
    this.store.runs.set(run.id, run);
    this.kick(ws.id);
    return run;
  }

  /** The run holding the workspace: started (not pending) and not final. */
  active(workspaceId: string): Run | undefined {
    return this.store.runsOf(workspaceId).find((r) => r.started && !FINAL_RUN_STATES.has(r.status));
  }

  isConfirmable(run: Run): boolean {
    // `late-cost-estimate`: the plan is confirmable at `planned` for one step before cost estimation starts
    // (RUN: `planned` is "needs confirmation"); a confirm then wins, else the run goes on to cost_estimated.
    const waits =
      run.status === 'cost_estimated' ||
      run.status === 'post_plan_completed' ||
      (run.status === 'policy_checked' && run.outcome === 'policy-override') ||
      (run.status === 'planned' && run.outcome === 'late-cost-estimate');
    return waits && run.hasChanges && !run.autoApply;
  }

  /**
   * A person's decision on a run held for one (HELD_RUN_STATES; in the UI in real life): `override` lets it go on
   * (post_plan_completed or policy_checked, then apply when auto-apply, else it waits for confirmation;
   * pre_plan_completed, then the plan); `cancel` ends it.
   */
  decide(run: Run, decision: 'override' | 'cancel'): void {
    const next = HELD_RUN_STATES[run.status];
    if (next === undefined) throw new Error(`run ${run.id} is ${run.status}, which waits for no decision`);
    // A policy override is refused by discarding the run (Runs API: `actions/discard` for runs that wait).
    this.set(run, decision === 'override' ? next : run.status === 'policy_override' ? 'discarded' : 'canceled');
  }

  isDiscardable(run: Run): boolean {
    return run.status === 'pending' || this.isConfirmable(run);
  }

  isCancelable(run: Run): boolean {
    return ['plan_queued', 'planning', 'apply_queued', 'applying', 'cost_estimating'].includes(run.status);
  }

  /** Start the oldest pending run of the workspace if nothing holds it. */
  private kick(workspaceId: string): void {
    if (this.active(workspaceId)) return;
    const next = this.store
      .runsOf(workspaceId)
      .filter((r) => r.status === 'pending')
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt))[0];
    if (!next) return;
    // Claim the workspace now so a second kick starts nothing; the run shows plan_queued one step later.
    next.started = true;
    this.step(next, 'plan_queued');
  }

  private set(run: Run, status: string): void {
    if (!this.store.workspaces.has(run.workspaceId)) return;
    const freed = HOLDS_SLOT.has(run.status) && !HOLDS_SLOT.has(status);
    run.status = status;
    run.generation++;
    run.timestamps[`${status.replace(/_/g, '-')}-at`] = new Date().toISOString();
    this.onEnter(run);
    if (freed && this.concurrency !== Infinity) this.startQueued();
  }

  /** Schedule the next state unless something else (cancel, discard) moved the run first. */
  private step(run: Run, next: string): void {
    const gen = run.generation;
    this.later(() => {
      if (run.generation !== gen || !this.store.workspaces.has(run.workspaceId)) return;
      if (HOLDS_SLOT.has(next) && this.concurrency !== Infinity && this.busySlots() >= this.concurrency) {
        this.slotQueue.push({ run, next, gen });
        return;
      }
      this.set(run, next);
    });
  }

  private onEnter(run: Run): void {
    const ws = this.store.workspaces.get(run.workspaceId);
    if (!ws) return;
    switch (run.status) {
      case 'plan_queued':
        ws.currentRunId = run.id;
        if (run.outcome === 'pre-plan-awaiting-decision') return this.step(run, 'pre_plan_running');
        return this.step(run, 'planning');
      case 'pre_plan_running':
        return this.step(run, 'pre_plan_awaiting_decision');
      case 'pre_plan_completed':
        return this.step(run, 'planning');
      case 'planning':
        if (run.outcome === 'errored') return this.step(run, 'errored');
        if (run.outcome === 'canceled') return this.step(run, 'canceled');
        return this.step(run, 'planned');
      case 'planned':
        run.hasChanges = run.outcome !== 'no-changes';
        return this.step(run, run.hasChanges ? 'cost_estimating' : 'planned_and_finished');
      case 'cost_estimating':
        return this.step(run, 'cost_estimated');
      case 'cost_estimated':
        if (run.outcome === 'discarded') return this.step(run, 'discarded');
        if (run.outcome === 'awaiting-decision') return this.step(run, 'post_plan_running');
        if (run.outcome === 'policy-override') return this.step(run, 'policy_checking');
        if (run.outcome === 'unlisted-status') return this.step(run, 'sandbox_unlisted_state');
        if (run.autoApply) return this.step(run, 'apply_queued');
        return; // waits for confirmation
      case 'post_plan_running':
        return this.step(run, 'post_plan_awaiting_decision');
      case 'policy_checking':
        return this.step(run, 'policy_override');
      case 'policy_checked':
        if (run.autoApply) return this.step(run, 'apply_queued');
        return; // waits for confirmation
      case 'post_plan_awaiting_decision':
      case 'pre_plan_awaiting_decision':
      case 'policy_override':
      case 'sandbox_unlisted_state':
        return; // waits for a person's decision (decide)
      case 'post_plan_completed':
        if (run.autoApply) return this.step(run, 'apply_queued');
        return; // waits for confirmation
      case 'confirmed':
        return this.step(run, 'apply_queued');
      case 'apply_queued':
        return this.step(run, 'applying');
      case 'applying':
        return this.step(run, 'applied');
      case 'applied':
        this.applyEffects(ws, run);
        return this.kick(ws.id);
      default:
        if (FINAL_RUN_STATES.has(run.status)) this.kick(ws.id);
    }
  }

  /** What an applied run changes: the module version, and the resources in state (docs/reference/hcp-terraform-api.md §3, §5). */
  private applyEffects(ws: Workspace, run: Run): void {
    ws.updatedAt = new Date().toISOString();
    // The new state is processed to discover resources for a while after the apply (docs/reference/hcp-terraform-api.md §5).
    ws.stateProcessedAt = this.clock.now() + this.stateProcessingMs;
    if (run.isDestroy) {
      ws.managedResources = 0;
      return;
    }
    if (ws.noCode && run.version) ws.noCode.version = run.version;
    if (ws.noCode && run.hasChanges && ws.managedResources === 0) ws.managedResources = 3;
  }

  /** `actions/apply` and the upgrade confirm: 409 unless the run waits for confirmation (RUN). */
  confirm(run: Run): void {
    if (!this.isConfirmable(run)) throw conflict('transition not allowed');
    this.set(run, 'confirmed');
  }

  discard(run: Run): void {
    if (!this.isDiscardable(run)) throw conflict('transition not allowed');
    this.set(run, 'discarded');
  }

  cancel(run: Run): void {
    if (!this.isCancelable(run)) throw conflict('transition not allowed');
    this.set(run, 'canceled');
  }
}
