import { addressKey, type Address, type Kind } from '../model/kinds.js';
import { kindOrder } from '../kinds/registry.js';
import type { AnyDesired } from '../model/desired.js';
import { sortDiagnostics, type Diagnostic } from '../diagnostics/types.js';
import type { ObjectView, PlannedChange, Provider } from '../providers/provider.js';
import { PLAN_FORMAT_VERSION, summarize, type Change, type DriftItem, type Plan, type PlanNotice } from '../plan/types.js';
import type { StateRecord } from '../state/types.js';
import { classifyDrift } from './drift.js';
import { fingerprint } from './fingerprint.js';
import { adoptedNote, forceRewrite, genericChange } from './generic-change.js';
import { sortForApply } from './order.js';
import { refreshOnlyChange, withRefresh } from './refresh.js';
import { expandDependents, expandTargets, outOfScope, outOfScopeNotice, withoutDesired } from './scope.js';
import type { PlanInput, PlanRun } from './types.js';
import { didYouMean } from '../diagnostics/suggest.js';
import { planMoves, withMoveField, withMoveReason } from './moves.js';

function byAddress(a: { kind: Kind; name: string }, b: { kind: Kind; name: string }): number {
  const k = kindOrder(a.kind) - kindOrder(b.kind);
  if (k !== 0) return k;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/**
 * An adoption is a no-op by definition. When a provider's refine turns one into a real change (an
 * HCP Terraform workspace with an upgrade available), it is an ordinary adopting change again: the
 * write's own record takes ownership, so the marker and its "nothing sent" note go.
 */
/** A destroy plan's deletions were asked for: they are not removals from the manifests, whatever those say. */
function asRequested(change: Change): Change {
  if (change.action !== 'delete') return change;
  const reasons = (change.reasons ?? []).map((r) => (r.code === 'removed' ? { code: 'destroy-requested' as const } : r.code === 'deletion-policy' ? { ...r, destroyRequested: true as const } : r));
  return { ...change, reasons };
}

function settleAdoption(change: Change): Change {
  if (change.adopt !== true || change.action === 'no-op') return change;
  const { adopt: _adopt, ...rest } = change;
  const notes = rest.notes.map((n) => (n.code === 'adopt-matches' ? adoptedNote(addressKey(change)) : n));
  return { ...rest, notes };
}

/** `--adopt` names an unowned object in the manifests, within the targets (one not live is simply created). */
function adoptProblems(keys: ReadonlySet<string>, views: ReadonlyMap<string, ObjectView>, inScope: (a: Address) => boolean): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const key of keys) {
    const view = views.get(key);
    // Not live: nothing to take over, the plan shows it created (and `converge import` says it is not found).
    if (view?.desired && !view.live) continue;
    const problem =
      !view?.desired || !view.live
        ? 'needs an object that is both in the manifests and live'
        : view.record
          ? 'is already owned by this state: a plain plan updates it'
          : !inScope(view)
            ? `is not among the --target addresses: add --target ${key}`
            : undefined;
    if (problem !== undefined) out.push({ severity: 'error', code: 'plan.unknown-adopt', summary: `--adopt ${key} ${problem}`, detail: 'write --adopt Kind/name for an existing, unowned object that has a manifest document' });
  }
  return out;
}

/**
 * A delete of an object that live objects outside this state still use (a provider says so in the live
 * view's `inUseOutsideState`: the workspaces of a no-code module that this state does not own) is refused:
 * it would break what another state or a person owns (decisions.md §27).
 */
function deletesInUse(planned: readonly PlannedChange[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const { change, view } of planned) {
    const users = view.live?.extra.inUseOutsideState;
    if (change.action !== 'delete' || !Array.isArray(users) || users.length === 0) continue;
    const names = users.map(String);
    const shown = names.length > 10 ? `${names.slice(0, 10).join(', ')} and ${names.length - 10} more` : names.join(', ');
    out.push({
      severity: 'error',
      code: 'plan.delete-in-use',
      summary: `${addressKey(view)} is deleted by this plan (its document is gone), but ${names.length} live workspace${names.length === 1 ? '' : 's'} outside this state still use${names.length === 1 ? 's' : ''} it: ${shown}`,
      detail: `keep its document; or stop managing it without deleting it: \`converge state rm ${addressKey(view)}\`; or delete those workspaces first (their owner's deletion)`,
    });
  }
  return out;
}

/**
 * Plans: reads live objects through each provider (providers in parallel, one `load` each), diffs,
 * lets providers refine, classifies drift. Sends no writes. Provider load errors propagate (a plan
 * cannot be made without the live side); plan-time problems become `plan.diagnostics`.
 */
export async function createPlan(input: PlanInput): Promise<PlanRun> {
  const { desired, providers, state, ctx } = input;
  const options = input.options ?? {};
  const diagnostics: Diagnostic[] = [];

  const served = new Set<Kind>(providers.flatMap((p) => p.kinds));
  for (const o of desired.objects) {
    if (!served.has(o.kind)) {
      diagnostics.push({
        severity: 'error',
        code: 'plan.no-provider',
        summary: `no provider serves ${o.kind} (${o.kind}/${o.name})`,
        detail: 'check the credentials for this kind of object are configured',
        range: o.range,
      });
    }
  }

  // At most one load per provider (two providers): bounded by construction.
  const loads = await Promise.all(
    providers.map(async (provider) => {
      const mine = (k: Kind) => provider.kinds.includes(k);
      const objects: AnyDesired[] = desired.objects.filter((o) => mine(o.kind));
      const records: StateRecord[] = state.records.filter((r) => mine(r.kind));
      if (objects.length === 0 && records.length === 0) return { provider, views: [] as ObjectView[], diagnostics: [] as Diagnostic[] };
      const result = await provider.load(
        { desired: objects, records, ...(options.readRegion !== undefined ? { readRegion: options.readRegion } : {}) },
        ctx,
      );
      return { provider, views: result.views, diagnostics: result.diagnostics };
    }),
  );

  const views = new Map<string, ObjectView>();
  const providerOf = new Map<string, Provider>();
  for (const load of loads) {
    diagnostics.push(...load.diagnostics);
    for (const v of load.views) {
      views.set(addressKey(v), v);
      providerOf.set(addressKey(v), load.provider);
    }
  }

  const destroy = options.destroy === true;
  // Moves first (Terraform's moved blocks act on the prior state before the plan): an owned object renamed by a
  // Moved document is one view at its new address. A destroy plan deletes what the state owns, as it is named.
  const moves = destroy || desired.moves === undefined ? undefined : planMoves(desired.moves, views);
  if (moves) diagnostics.push(...moves.diagnostics);

  const targets = options.targets ?? [];
  for (const t of targets) {
    if (!views.has(addressKey(t))) {
      diagnostics.push({
        severity: 'error',
        code: 'plan.unknown-target',
        summary: `--target ${addressKey(t)} matches nothing in the manifests, the state or the live service`,
        detail: targetHint(addressKey(t), views.keys()),
      });
    }
  }
  // A destroy plan takes the targets with what depends on them (deleting an auth method deletes its binding
  // rules first), where a normal plan takes them with what they depend on; read before the documents go.
  const expanded = options.exactTargets === true ? { keys: new Set(targets.map(addressKey)), notices: [] } : destroy ? expandDependents(targets, views) : expandTargets(targets, views);
  if (destroy) withoutDesired(views);
  const skipped = outOfScope(views.values(), options.files);
  const skippedKeys = new Set([...skipped.notGiven, ...skipped.unresolved].map(addressKey));
  // A destroy plan is about what the state owns: an unowned object in the manifests is left alone.
  const owned = (a: Address) => !destroy || views.get(addressKey(a))?.record !== undefined;
  const inScope = (a: Address) => !skippedKeys.has(addressKey(a)) && (targets.length === 0 || expanded.keys.has(addressKey(a))) && owned(a);
  const rewriteKeys = new Set((options.rewrite ?? []).map(addressKey));
  for (const key of rewriteKeys) {
    const view = views.get(key);
    if (!view?.desired || !view.live) {
      diagnostics.push({
        severity: 'error',
        code: 'plan.unknown-rewrite',
        summary: `--rewrite ${key} needs an object that is both in the manifests and live`,
        detail: view?.desired ? 'it does not exist live yet: a plain apply creates it with every field' : 'write it as Kind/name of a manifest document, as shown by `converge plan`',
      });
    } else if (!inScope(view)) {
      diagnostics.push({ severity: 'error', code: 'plan.rewrite-outside-targets', summary: `--rewrite ${key} is not among the --target addresses`, detail: `add --target ${key}` });
    }
  }
  const adoptKeys = new Set((options.adopt ?? []).map(addressKey));
  diagnostics.push(...adoptProblems(adoptKeys, views, inScope));
  if (options.refreshOnly === true && (rewriteKeys.size > 0 || adoptKeys.size > 0)) {
    diagnostics.push({
      severity: 'error',
      code: 'plan.refresh-only-with-writes',
      summary: '--refresh-only sends nothing, so it cannot be combined with --rewrite or --adopt',
      detail: 'run the refresh-only plan alone, then plan --rewrite / --adopt separately',
    });
  }

  const ordered = [...views.values()].sort(byAddress);
  const planned: PlannedChange[] = [];
  const drift: DriftItem[] = [];
  for (const view of ordered) {
    if (!inScope(view)) continue;
    // A move's leftover record is no drift: the object it names is owned at the move's new address.
    if (!moves?.leftovers.has(addressKey(view))) drift.push(...classifyDrift(view));
    if (options.refreshOnly === true) {
      const change = refreshOnlyChange(view);
      if (change) planned.push({ change, view });
      continue;
    }
    const generic = genericChange(view, { adopt: adoptKeys.has(addressKey(view)) });
    diagnostics.push(...generic.diagnostics);
    const rewrite = rewriteKeys.has(addressKey(view));
    const move = moves?.moved.get(addressKey(view));
    const forced = rewrite ? forceRewrite(generic.change, view) : generic.change;
    const base = move ? withMoveField(forced, move) : moves?.leftovers.has(addressKey(view)) ? withoutGoneNote(forced) : forced;
    const provider = providerOf.get(addressKey(view));
    const refined = provider?.refine ? provider.refine(view, base, views, { rewrite, ...(options.deletion !== undefined ? { deletion: options.deletion } : {}) }) : [base];
    for (const one of refined) {
      const change = destroy ? asRequested(one) : move ? withMoveReason(one, move) : one;
      planned.push({ change: refined.length === 1 ? withRefresh(settleAdoption(change), view) : settleAdoption(change), view });
    }
  }
  diagnostics.push(...deletesInUse(planned));
  const notices: PlanNotice[] = [
    ...(options.refreshOnly === true ? [{ code: 'refresh-only' as const }] : []),
    ...(destroy ? [{ code: 'destroy' as const, ...(options.deletion !== undefined ? { deletion: options.deletion } : {}) }] : []),
    ...expanded.notices,
    ...outOfScopeNotice(skipped),
  ];

  const sorted = sortForApply(planned);
  // A generated document's origin travels with its change, for the views (the engine reads nothing else of it).
  for (const p of sorted) {
    const origin = views.get(addressKey(p.change))?.desired?.object.origin;
    if (origin !== undefined) p.change.origin = origin;
  }
  const changes = sorted.map((p) => p.change);
  const secretDigests: Record<string, string> = {};
  for (const view of ordered) {
    if (!inScope(view) || !view.desired) continue;
    for (const [path, digest] of Object.entries(view.desired.secrets)) secretDigests[`${addressKey(view)}#${path}`] = digest;
  }
  const plan: Plan = {
    formatVersion: PLAN_FORMAT_VERSION,
    createdAt: (options.now?.() ?? new Date()).toISOString(),
    changes,
    drift,
    diagnostics: sortDiagnostics(diagnostics),
    summary: summarize(changes),
    ...(notices.length > 0 ? { notices } : {}),
  };
  return {
    plan,
    planned: sorted,
    views,
    reads: ordered.filter(inScope).map(fingerprint),
    secretDigests,
    state: { serial: state.serial, salt: state.salt },
  };
}

/**
 * A move's leftover record is dropped for the move's sake (its own note says so), not because the object is
 * gone: a refresh of kind `gone`, which apply carries out by dropping the record, sending nothing.
 */
function withoutGoneNote(change: Change): Change {
  return { ...change, refresh: 'gone', notes: change.notes.filter((n) => n.code !== 'already-gone') };
}

/** A did-you-mean among the objects this plan knows (a typo in the name), else how targets are written. */
function targetHint(key: string, known: Iterable<string>): string {
  const close = didYouMean(key, [...known]);
  if (close !== undefined) return `Did you mean \`--target ${close}\`?`;
  return 'write targets as Kind/name, as shown by `converge plan` or `converge state list`';
}
