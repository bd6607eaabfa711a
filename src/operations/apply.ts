import { ConvergeError } from '../diagnostics/errors.js';
import { hasErrors, type Diagnostic } from '../diagnostics/types.js';
import { applyPlan, findStaleness, type ApplyResult, type PlanRun } from '../engine/index.js';
import { adoptions, hasChanges, refreshes, type SavedPlan } from '../plan/types.js';
import type { Action } from '../model/action.js';
import type { ApplyOptions } from '../providers/provider.js';
import { stateBackendFor } from './connect.js';
import type { OperationHost } from './host.js';
import { openLockedStore } from './lock.js';
import { checkAddresses, loadForPlan, planLoaded, type PlanRequest, type PlanSession } from './plan.js';

export interface ApplyRequest extends PlanRequest {
  /** A plan saved by `plan --out`: applied exactly, refused when stale; its paths, targets and rewrites win. */
  savedPlan?: SavedPlan;
  /** Wait this long for a held state lock (0: fail at once). */
  lockTimeoutMs: number;
  options: ApplyOptions;
  /**
   * Asked with the plan before anything is written (not for a saved plan: that was reviewed).
   * False cancels. Without it the plan is applied.
   */
  approve?(run: PlanRun): Promise<boolean>;
  /** Aborted: no new change starts; the one in flight finishes and is recorded (Ctrl-C). */
  signal?: AbortSignal;
  /**
   * `approve` asks a person, who sees the plan: a yes then consents to the adoptions it names (decisions.md
   * §27). Otherwise (`--auto-approve`, a saved plan, a library call) they need `adoptAll` or `adopt`.
   */
  interactive?: boolean;
}

export type ApplyReport =
  /** Diagnostics (handed to the host) stopped the run before anything was written. */
  | { status: 'invalid' }
  | { status: 'no-changes'; run: PlanRun }
  | { status: 'cancelled'; run: PlanRun }
  /** The signal was aborted before the first change: nothing was sent. */
  | { status: 'stopped-before-start'; run: PlanRun }
  /** `lockLost`: the state lock was lost mid-way (its lease ran out): what was left was not started, and the run must fail. */
  | { status: 'applied'; run: PlanRun; result: ApplyResult; lockLost?: unknown };

/**
 * `converge apply` as a library call: loads the manifests once, locks the state before live state is
 * read (two applies never plan from the same state), plans, checks a saved plan for staleness, asks
 * for approval, runs the providers' preflights, applies and releases the lock.
 */
export async function apply(host: OperationHost, req: ApplyRequest): Promise<ApplyReport> {
  checkAddresses(req);
  if (req.savedPlan) refuseOtherEnvironment(req.savedPlan, host.environment);
  const manifests = await loadForPlan(host, req);
  if (!manifests) return { status: 'invalid' };
  const backend = stateBackendFor(host, manifests.desired.settings);
  const store = await openLockedStore(host, backend, 'apply', req.lockTimeoutMs);
  try {
    const session = await planLoaded(host, manifests, store.doc, req, backend.description);
    if (!session) return { status: 'invalid' };
    try {
      const { run } = session;
      if (req.savedPlan) refuseStale(req.savedPlan, run, store.doc.serial);
      if (!hasChanges(run.plan) && adoptions(run.plan).length === 0 && refreshes(run.plan).length === 0) return { status: 'no-changes', run };
      refuseUnconsentedAdoption(run, req.savedPlan === undefined && req.interactive === true && req.approve !== undefined);
      if (!req.savedPlan && req.approve && !(await req.approve(run))) return { status: 'cancelled', run };
      if (!(await preflight(host, session))) return { status: 'invalid' };
      if (req.signal?.aborted) return { status: 'stopped-before-start', run };
      const changes = run.plan.changes.filter((c) => c.action !== 'no-op');
      const actions: Partial<Record<Action, number>> = {};
      for (const c of changes) actions[c.action] = (actions[c.action] ?? 0) + 1;
      host.phase('applying', changes.length, actions);
      const ctx = req.signal ? { ...session.ctx, signal: req.signal } : session.ctx;
      const result = await applyPlan(run, { providers: session.providers, store, ctx, options: req.options });
      host.endPhase();
      // Changes skipped because the lock was lost are not failures, but the run did not finish its work.
      const lockLost: unknown = store.lockLost?.aborted ? store.lockLost.reason : undefined;
      return { status: 'applied', run, result, ...(lockLost !== undefined ? { lockLost } : {}) };
    } finally {
      await session.close();
    }
  } finally {
    await store.close();
    host.lockHeld?.(undefined);
  }
}

/** Adoptions a new or named state was not given consent for (decisions.md §27): refused unless a person is asked. */
function refuseUnconsentedAdoption(run: PlanRun, asking: boolean): void {
  const notice = run.plan.notices?.find((n) => n.code === 'adoption-needs-consent');
  if (notice === undefined || asking) return;
  const names = notice.objects.map((o) => `${o.kind}/${o.name}`);
  const shown = names.length > 20 ? `${names.slice(0, 20).join(', ')} and ${names.length - 20} more` : names.join(', ');
  const why = notice.why === 'new-state' ? 'is new (it owns nothing yet)' : 'is named';
  throw new ConvergeError('apply.adopt-needs-consent', `refusing to record ${names.length} existing object${names.length === 1 ? '' : 's'} as owned without consent: the state (${notice.state}) ${why}, and ${names.length === 1 ? 'it' : 'they'} may belong to another state: ${shown}`, {
    source: 'user',
    hint: 'if they are this state\'s, apply again with --adopt-all (or --adopt Kind/name for each, or `converge import`; a saved plan must be made with them); if another state owns them, point Settings `state.path` at that state. Nothing was sent.',
  });
}

/** A saved plan applies only to the environment it was made for (none when it names none): its targets and its state. */
function refuseOtherEnvironment(saved: SavedPlan, environment: string | undefined): void {
  if (saved.environment === environment) return;
  const planned = saved.environment === undefined ? 'no environment' : `environment ${saved.environment}`;
  const asked = environment === undefined ? 'no --env' : `--env ${environment}`;
  throw new ConvergeError('apply.plan-other-environment', `this saved plan was made for ${planned}, but apply was run with ${asked}`, {
    source: 'user',
    hint: saved.environment === undefined ? 'apply it without --env, or make a plan with --env for that environment' : `apply it with --env ${saved.environment}, or make a new plan with the --env you meant. Nothing was sent.`,
  });
}

/** A saved plan applies only to the live state and manifests it was made from. */
function refuseStale(saved: SavedPlan, run: PlanRun, serialNow: number): void {
  const stale = findStaleness(saved, run);
  if (stale.length === 0) return;
  const planned = saved.saved.state?.serial;
  if (planned !== undefined && serialNow > planned && !hasChanges(run.plan)) {
    throw new ConvergeError('apply.plan-already-applied', `this saved plan was already applied: the state moved on since it was made (serial ${planned} → ${serialNow}) and live state now matches the manifests`, {
      source: 'user',
      hint: 'nothing is left to do; run `converge plan` to check, and save a new plan for the next change',
    });
  }
  const lines = stale.map((s) => `  - ${s.kind}/${s.name}${s.field ? ` (${s.field})` : ''}: ${s.message}`);
  throw new ConvergeError('apply.stale-plan', `the saved plan is stale: live state or the manifests changed since it was made\n${lines.join('\n')}`, {
    source: 'user',
    hint: 'run `converge plan --out FILE` again, review it, and apply the new plan',
  });
}

/** Each provider's checks for the kinds that change (token kind, reachability); false when one is an error. */
async function preflight(host: OperationHost, session: PlanSession): Promise<boolean> {
  const found: Diagnostic[] = [];
  const changing = new Set(session.run.plan.changes.filter((c) => c.action !== 'no-op').map((c) => c.kind));
  for (const p of session.providers) {
    const kinds = p.kinds.filter((k) => changing.has(k));
    if (kinds.length > 0 && p.preflight) found.push(...(await p.preflight(session.ctx, kinds)));
  }
  if (found.length > 0) host.diagnostics(found, session.manifests.sources);
  return !hasErrors(found);
}
