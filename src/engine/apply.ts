import { ConvergeError, errorMessage, isConvergeError } from '../diagnostics/errors.js';
import { hasErrors } from '../diagnostics/types.js';
import { isAdoption, isRefresh } from '../plan/types.js';
import type { StateRecord } from '../state/types.js';
import type { OutcomeDetail } from '../plan/codes.js';
import { addressKey, type Address, type Kind } from '../model/kinds.js';
import { KINDS } from '../kinds/registry.js';
import type { ApplyContext, ApplyOutcome, OutcomeStatus, PlannedChange, Provider } from '../providers/provider.js';
import { createApplyContext, type EngineApplyContext } from './apply-context.js';
import { dependenciesOf } from './dependencies.js';
import { sourceOf } from './refresh.js';
import type { ApplyCounts, ApplyInput, ApplyResult, PlanRun } from './types.js';

type Phase = 'delete' | 'write';

const WRITE_ACTIONS = new Set(['create', 'update', 'upgrade']);

function outcomeOf(p: PlannedChange, status: OutcomeStatus, message: string, error?: ConvergeError): ApplyOutcome {
  return { kind: p.change.kind, name: p.change.name, action: p.change.action, status, message, ...(error ? { error } : {}) };
}

/** A change the engine does not send, with why as a code (views/apply-result.ts words it). */
function skippedOf(p: PlannedChange, detail: OutcomeDetail): ApplyOutcome {
  return { kind: p.change.kind, name: p.change.name, action: p.change.action, status: 'skipped', detail };
}

function isBad(status: OutcomeStatus | undefined): boolean {
  return status === 'failed' || status === 'skipped' || status === 'cancelled';
}

/**
 * Applies a plan: deletes (dependents first: reverse KINDS order), then writes (dependencies first),
 * one provider batch per kind. A change whose dependency failed or was skipped is skipped with the
 * reason, never sent. A provider that throws fails its batch's changes; other outcomes are kept.
 * State is saved by providers through the ApplyContext after each remote change.
 */
export async function applyPlan(run: PlanRunLike, input: ApplyInput): Promise<ApplyResult> {
  const { providers, store, ctx, options } = input;
  if (hasErrors(run.plan.diagnostics)) {
    throw new ConvergeError('apply.plan-has-errors', 'refusing to apply a plan that has errors', {
      source: 'user',
      hint: 'fix the errors `converge plan` reports, then plan again',
    });
  }
  const moves = new Map(run.planned.flatMap((p) => (p.change.movedFrom !== undefined ? [[addressKey(p.change), { kind: p.change.kind, name: p.change.movedFrom }] as const] : [])));
  const applyCtx = createApplyContext(store, ctx, options, withSource(run), (a) => moves.get(addressKey(a)));
  const outcomes: ApplyOutcome[] = [];
  /** Final status per phase and address (`delete:Kind/name`, `write:Kind/name`). */
  const status = new Map<string, OutcomeStatus>();
  const record = (phase: Phase, o: ApplyOutcome) => {
    outcomes.push(o);
    const key = `${phase}:${addressKey(o)}`;
    // With several changes for one address, the worst status wins.
    if (!isBad(status.get(key))) status.set(key, o.status);
  };

  const batches: { phase: Phase; kind: Kind }[] = [
    ...[...KINDS].reverse().map((kind) => ({ phase: 'delete' as const, kind })),
    ...KINDS.map((kind) => ({ phase: 'write' as const, kind })),
  ];
  // Addresses whose deletion must wait: a dependent's delete failed or was skipped.
  const blockedDeletes = new Map<string, string>();

  // Before any write: the records are right whatever the writes do, and a provider working out which
  // live objects are already owned (a rule create whose answer was lost) sees them.
  if (!applyCtx.signal?.aborted) await dropUnsent(run, store, applyCtx);
  const adopted = applyCtx.signal?.aborted ? [] : await recordAdoptions(run, providers, store, applyCtx, new Date());
  const refreshed = applyCtx.signal?.aborted ? [] : await recordRefreshes(run, providers, store, applyCtx, new Date());

  for (const { phase, kind } of batches) {
    const changes = run.planned.filter(
      (p) => p.change.kind === kind && (phase === 'delete' ? p.change.action === 'delete' : WRITE_ACTIONS.has(p.change.action)),
    );
    if (changes.length === 0) continue;
    const send: PlannedChange[] = [];
    for (const p of changes) {
      const reason = skipReason(phase, p, status, blockedDeletes, applyCtx.signal);
      if (reason !== undefined) {
        const o = skippedOf(p, reason);
        emitDone(applyCtx, o);
        record(phase, o);
      } else {
        send.push(p);
      }
    }
    if (send.length > 0) {
      const done = await runBatch(providers, phase, kind, send, run, applyCtx, store);
      for (const o of done) record(phase, o);
      await settleMoves(send, done, store, applyCtx);
    }
    if (phase === 'delete') {
      for (const p of changes) {
        if (!isBad(status.get(`delete:${addressKey(p.change)}`))) continue;
        for (const dep of dependenciesOf(p.view)) blockedDeletes.set(addressKey(dep), addressKey(p.change));
      }
    }
  }

  await dropGone(run, store, applyCtx);
  const counts: ApplyCounts = { succeeded: 0, failed: 0, skipped: 0, awaiting: 0 };
  for (const o of outcomes) {
    if (o.status === 'awaiting-confirmation') counts.awaiting += 1;
    else if (o.status === 'cancelled') counts.cancelled = (counts.cancelled ?? 0) + 1;
    else counts[o.status] += 1;
  }
  return { outcomes, counts, adopted, refreshed };
}

/**
 * A moved object's record was saved at its new address by the change that renamed it (the provider's save);
 * the record at the old address goes next. Two writes, in this order: an apply stopped between them leaves
 * both records with one id, which the next plan sees as the move's leftover and drops (engine/moves.ts).
 */
async function settleMoves(send: readonly PlannedChange[], done: readonly ApplyOutcome[], store: ApplyInput['store'], ctx: EngineApplyContext): Promise<void> {
  for (const p of send) {
    const from = p.change.movedFrom;
    if (from === undefined || ctx.signal?.aborted) continue;
    const outcome = done.find((o) => o.kind === p.change.kind && o.name === p.change.name);
    if (outcome === undefined || outcome.status === 'failed' || outcome.status === 'skipped') continue;
    const old = { kind: p.change.kind, name: from };
    const moved = store.get(p.change);
    if (moved === undefined || store.get(old) === undefined) continue;
    await ctx.recorded(() => store.remove(old));
    ctx.reporter.emit({
      code: 'apply.state.moved',
      level: 'info',
      message: `${addressKey(old)}: moved to ${addressKey(p.change)} in state`,
      data: { kind: p.change.kind, from, to: p.change.name, id: moved.id },
    });
  }
}

/** The part of a PlanRun apply needs (a PlanRun fits). */
export type PlanRunLike = Pick<PlanRun, 'plan' | 'planned' | 'views'>;

function skipReason(
  phase: Phase,
  p: PlannedChange,
  status: ReadonlyMap<string, OutcomeStatus>,
  blockedDeletes: ReadonlyMap<string, string>,
  signal: AbortSignal | undefined,
): OutcomeDetail | undefined {
  if (signal?.aborted) {
    const why: unknown = signal.reason;
    if (why instanceof ConvergeError && why.code === 'state.lock-lost') return { code: 'lock-lost' };
    return why instanceof ConvergeError && why.code === 'state.write-failed' ? { code: 'earlier-not-recorded' } : { code: 'cancelled' };
  }
  const self = addressKey(p.change);
  if (phase === 'delete') {
    if (p.view.record?.protect) return { code: 'protected' };
    const blocker = blockedDeletes.get(self);
    if (blocker !== undefined) return { code: 'dependent-not-deleted', dependent: blocker };
    return undefined;
  }
  // A replacement's create waits for its delete.
  if (isBad(status.get(`delete:${self}`))) return { code: 'deletion-not-done' };
  for (const dep of dependenciesOf(p.view)) {
    const s = status.get(`write:${addressKey(dep)}`);
    if (s === 'failed' || s === 'skipped') return { code: 'dependency-not-done', dependency: addressKey(dep), status: s };
  }
  return undefined;
}

function emitDone(ctx: ApplyContext, o: ApplyOutcome): void {
  ctx.reporter.emit({
    code: 'apply.change.done',
    level: o.status === 'failed' ? 'error' : o.status === 'skipped' ? 'warn' : 'info',
    message: `${addressKey(o)}: ${o.action} ${o.status}${eventDetail(o)}`,
    data: { kind: o.kind, name: o.name, action: o.action, status: o.status, message: o.message, detail: o.detail, runUrl: o.runUrl, errorCode: o.error?.code },
  });
}

/** The event's words: a provider's sentence, else the error's, else the outcome's code (the engine words nothing). */
function eventDetail(o: ApplyOutcome): string {
  const said = o.message ?? o.error?.message ?? o.detail?.code;
  return said ? ` (${said})` : '';
}

async function runBatch(
  providers: readonly Provider[],
  phase: Phase,
  kind: Kind,
  send: PlannedChange[],
  run: PlanRunLike,
  ctx: EngineApplyContext,
  store: ApplyInput['store'],
): Promise<ApplyOutcome[]> {
  // Each change's start and end are reported when the provider really starts and ends it (ApplyContext.track), so
  // progress counts objects as they finish and no "create…" is said of an object not sent yet; an outcome the
  // provider did not track is reported when the batch returns.
  const reported = new Set<string>();
  const key = (o: Pick<ApplyOutcome, 'kind' | 'name' | 'action'>) => `${o.action} ${addressKey(o)}`;
  const emitStart = (p: PlannedChange) =>
    ctx.reporter.emit({
      code: 'apply.change.start',
      level: 'info',
      message: `${addressKey(p.change)}: ${p.change.action}…`,
      data: { kind: p.change.kind, name: p.change.name, action: p.change.action },
    });
  const batchCtx: ApplyContext = {
    ...ctx,
    track: async (p, one) => {
      emitStart(p);
      // Not sent when its mark could not be saved: nothing after a failed state write starts (apply-context.ts).
      const o = (await markSent(p, run, store, ctx)) ? await one() : skippedOf(p, { code: 'earlier-not-recorded' });
      // A mark that cannot be dropped stays (harmless: the plan drops it once it finds nothing live).
      await settleSent(p, o, store, ctx).catch(() => undefined);
      reported.add(key(o));
      emitDone(ctx, o);
      return o;
    },
  };
  const provider = providers.find((pr) => pr.kinds.includes(kind));
  let marked = true;
  if (provider?.tracksChanges !== true) {
    for (const p of send) emitStart(p);
    for (const p of send) if (marked) marked = await markSent(p, run, store, ctx);
  }
  let returned: ApplyOutcome[];
  if (!marked) {
    returned = send.map((p) => skippedOf(p, { code: 'earlier-not-recorded' }));
  } else if (!provider) {
    const error = new ConvergeError('apply.no-provider', `no provider serves ${kind}`, { source: 'internal' });
    returned = send.map((p) => outcomeOf(p, 'failed', error.message, error));
  } else {
    try {
      returned = await provider.apply({ phase, kind, changes: send, all: run.views }, batchCtx);
    } catch (e) {
      const error = isConvergeError(e)
        ? e
        : new ConvergeError('apply.provider-error', `the ${provider.id} provider failed: ${errorMessage(e)}`, { source: 'internal', cause: e });
      returned = send.map((p) => outcomeOf(p, 'failed', error.message, error));
    }
  }
  // Pair outcomes with the changes sent; a change without one failed (never lose an outcome either way).
  const unused = [...returned];
  const result: ApplyOutcome[] = [];
  for (const p of send) {
    const i = unused.findIndex((o) => o.kind === p.change.kind && o.name === p.change.name && o.action === p.change.action);
    const j = i >= 0 ? i : unused.findIndex((o) => o.kind === p.change.kind && o.name === p.change.name);
    if (j >= 0) {
      result.push(...unused.splice(j, 1));
    } else {
      const error = new ConvergeError('apply.no-outcome', `the provider reported no outcome for ${addressKey(p.change)}`, { source: 'internal' });
      result.push(outcomeOf(p, 'failed', error.message, error));
    }
  }
  result.push(...unused);
  for (const o of result) {
    if (reported.has(key(o))) continue;
    const p = send.find((c) => c.change.kind === o.kind && c.change.name === o.name);
    if (p) await settleSent(p, o, store, ctx).catch(() => undefined);
    emitDone(ctx, o);
  }
  return result;
}

/*
 * Creates sent without a record yet (decisions.md §28). A create is marked in the state before it is sent, so a
 * run killed before it could record the object leaves the mark, and the rerun takes the object it finds under
 * that name as its own without asking for consent: this state made it. The record's `put` drops the mark; a
 * create the apply saw fail (the provider looks a create whose answer was lost up by name first) drops it too.
 * A failed state write keeps it: the object may exist unrecorded.
 */

/** False when the mark was needed but could not be saved: the create must not be sent. */
async function markSent(p: PlannedChange, run: PlanRunLike, store: ApplyInput['store'], ctx: EngineApplyContext): Promise<boolean> {
  if (p.change.action !== 'create' || store.get(p.change) !== undefined || ctx.signal?.aborted) return true;
  // Only where a rerun would ask for consent (decisions.md §27): a named state, or one with no record yet. An
  // unnamed state that holds a record adopts what matches by itself, so a mark there would cost a write for nothing.
  if (run.plan.state?.name === undefined && store.records().length > 0) return true;
  try {
    await ctx.recorded(() => store.markSent(p.change, new Date()));
    return true;
  } catch {
    // recorded() has stopped the apply's remote work and kept the error as the reason.
    return false;
  }
}

async function settleSent(p: PlannedChange, o: ApplyOutcome, store: ApplyInput['store'], ctx: EngineApplyContext): Promise<void> {
  if (p.change.action !== 'create' || store.get(p.change) !== undefined) return;
  if (o.status !== 'failed' && o.status !== 'skipped') return;
  if (o.error?.code === 'state.write-failed' || ctx.signal?.aborted) return;
  await ctx.recorded(() => store.clearSent(p.change));
}

/** Marks whose object the plan found neither live nor recorded: that create never made it, so the mark goes. */
async function dropUnsent(run: PlanRunLike, store: ApplyInput['store'], ctx: EngineApplyContext): Promise<void> {
  for (const c of store.sent()) {
    const view = run.views.get(addressKey(c));
    if (view && !view.live && !view.record) await ctx.recorded(() => store.clearSent(c));
  }
}

/**
 * Adoptions (no-op changes marked `adopt`): the object is live, matches the manifests and is not in
 * state. Its record is built by its provider from what the plan read (Provider.adopt, the same
 * builder `converge import` uses): no request is sent (decisions.md §9).
 */
async function recordAdoptions(
  run: PlanRunLike,
  providers: readonly Provider[],
  store: ApplyInput['store'],
  ctx: ApplyContext,
  now: Date,
): Promise<Address[]> {
  const adopted: Address[] = [];
  for (const p of run.planned) {
    const { view } = p;
    const live = view.live;
    if (!isAdoption(p.change) || !live || !view.desired || store.get(view)) continue;
    const provider = providers.find((pr) => pr.kinds.includes(view.kind));
    if (!provider?.adopt) {
      throw new ConvergeError('apply.no-adopt', `no provider can record ${addressKey(view)} as owned`, { source: 'internal' });
    }
    await store.put(withSource(run)(provider.adopt({ ...view, live }, run.views, now)));
    adopted.push({ kind: view.kind, name: view.name });
    ctx.reporter.emit({
      code: 'apply.state.adopted',
      level: 'info',
      message: `${addressKey(view)}: recorded as owned (it already matched the manifests; nothing sent)`,
      data: { kind: view.kind, name: view.name, id: live.id },
    });
  }
  return adopted;
}

/**
 * Saved records carry the manifest file of their document relative to the state root (decisions.md §16, §27);
 * a record without a document keeps its own.
 */
function withSource(run: PlanRunLike): (record: StateRecord) => StateRecord {
  return (record) => {
    const view = run.views.get(addressKey(record));
    const source = view ? sourceOf(view) : undefined;
    return source === undefined ? record : { ...record, source, rootRelative: true };
  };
}

/**
 * Refreshes (no-op changes marked `refresh`): an owned object's record takes the live values read by
 * the plan, or is dropped when the object is gone (`--refresh-only`). Nothing is sent (decisions.md §18).
 */
async function recordRefreshes(run: PlanRunLike, providers: readonly Provider[], store: ApplyInput['store'], ctx: ApplyContext, now: Date): Promise<Address[]> {
  const refreshed: Address[] = [];
  for (const p of run.planned) {
    const { view } = p;
    const live = view.live;
    const current = store.get(view);
    if (!isRefresh(p.change) || !current) continue;
    if (live) {
      // The provider data (Nomad's Hash, HCP Terraform's ids) is taken as it is live too, the way an
      // import records it, unless the provider saw a change it cannot read: that hidden drift stays
      // reported until `--rewrite` settles it (decisions.md §10), since accepting it would vouch for a
      // secret nobody can see.
      const provider = providers.find((pr) => pr.kinds.includes(view.kind));
      const extra = live.hiddenChange === undefined && provider?.adopt ? provider.adopt({ ...view, live }, run.views, now).extra : current.extra;
      const { inFlight, ...rest } = current;
      // `run`: the run the record followed has applied; any other refresh keeps a run still in flight to resume.
      const keep = p.change.refresh !== 'run' && inFlight !== undefined ? { inFlight } : {};
      await store.put(withSource(run)({ ...rest, ...keep, id: live.id, applied: { ...live.fields }, extra, updatedAt: now.toISOString() }));
    } else {
      await store.remove(view);
    }
    refreshed.push({ kind: view.kind, name: view.name });
    ctx.reporter.emit({
      code: 'apply.state.refreshed',
      level: 'info',
      message: `${addressKey(view)}: ${view.live ? 'state record refreshed from the live object' : 'gone from the live service, dropped from state'} (nothing sent)`,
      data: { kind: view.kind, name: view.name, dropped: !view.live },
    });
  }
  return refreshed;
}

/** No-op "already gone" objects (owned, not desired, not live) leave the state once an apply runs. */
async function dropGone(run: PlanRunLike, store: ApplyInput['store'], ctx: ApplyContext): Promise<void> {
  for (const p of run.planned) {
    const v = p.view;
    if (p.change.action !== 'no-op' || v.desired || v.live || !v.record) continue;
    if (!store.get(v)) continue;
    await store.remove(v);
    ctx.reporter.emit({
      code: 'apply.state.dropped',
      level: 'info',
      message: `${addressKey(v)}: already gone, dropped from state`,
      data: { kind: v.kind, name: v.name },
    });
  }
}
