import { assertNever, type Action } from '../model/action.js';
import { addressKey } from '../model/kinds.js';
import type { ApplyOutcome } from '../providers/provider.js';
import type { ApplyResult } from '../engine/types.js';
import type { Change } from '../plan/types.js';
import type { OutcomeDetail, RunStep } from '../plan/codes.js';
import { actionSymbol } from './format.js';

/*
 * Result of an apply, for people: one line per object saying once what happened
 * (`+ NomadAuthMethod/okta  created`, `~ NomadAuthMethod/okta  updated (config.claimMappings.name)`,
 * `^ NoCodeWorkspace/vpc-dev  upgraded 1.4.0 → 1.5.0: run run-… applied`), then hint and run URL
 * lines. When everything succeeded the closing line says only that ("Apply complete: 3 succeeded."),
 * so a clean run prints no "failed" anywhere; otherwise every count.
 */

function done(action: Action): string {
  switch (action) {
    case 'create':
      return 'created';
    case 'update':
      return 'updated';
    case 'delete':
      return 'deleted';
    case 'upgrade':
      return 'upgraded';
    case 'no-op':
      return 'unchanged';
    default:
      return assertNever(action, 'action');
  }
}

const MAX_PATHS = 5;

/** What the plan knew about the change: the fields an update touched, the versions an upgrade moves between. */
function planned(c: Change | undefined): string {
  if (!c) return '';
  if (c.action === 'upgrade' && c.upgrade) {
    const { from, to } = c.upgrade;
    return from === to ? ` at ${to ?? '(none)'}` : ` ${from ?? '(none)'} → ${to ?? '(none)'}`;
  }
  if (c.action === 'update' && c.fields.length > 0) {
    const paths = [...new Set(c.fields.map((f) => f.path))];
    const shown = paths.slice(0, MAX_PATHS).join(', ');
    return ` (${paths.length > MAX_PATHS ? `${shown} and ${paths.length - MAX_PATHS} more` : shown})`;
  }
  return '';
}

function named(d: { id?: string; object?: string }): string {
  return [d.object, d.id].filter((s) => s !== undefined).join(' ');
}

/**
 * A succeeded outcome's text from its code: the verb and the remote id say what happened by
 * themselves ("created rule 0876…"); otherwise the verb and what the plan knew, then the detail.
 * Without a code, a provider's sentence is detail after the verb.
 */
function succeededText(o: ApplyOutcome, change: Change | undefined): string {
  const verb = done(o.action);
  const head = `${verb}${planned(change)}`;
  const d = o.detail;
  if (d === undefined) {
    const message = o.message?.trim() ?? '';
    return message === '' ? head : `${head}: ${message}`;
  }
  if (d.code === 'done') return head;
  if (d.code === 'done-id' || d.code === 'created-no-first-run' || d.code === 'created-run') return outcomeSentence(o.action, d);
  // Only a workspace created succeeds with its run interrupted (the workspace's follow-run.ts): the sentence starts with it.
  if (d.code === 'run-interrupted' && d.after.step === 'created') return outcomeSentence(o.action, d);
  return `${head}: ${outcomeSentence(o.action, d)}`;
}

/** What a success did, in one sentence: `apply --json` gives it as `message` (format 1.0 readers rely on it). */
export function outcomeSentence(action: Action, d: OutcomeDetail): string {
  const verb = done(action);
  switch (d.code) {
    case 'done':
      return verb;
    case 'done-id':
      return `${verb} ${named(d)}${d.paths !== undefined && d.paths.length > 0 ? `: ${d.paths.join(', ')}` : ''}`;
    case 'already-gone':
      if (d.notFound === true && d.id !== undefined) return `${named(d)} was already gone (404)`;
      return d.id !== undefined ? `${named(d)} already gone` : 'already gone';
    case 'protect-recorded':
      return 'protect recorded in state';
    case 'dropped-no-id':
      return `no ${d.object} id known: dropped from state`;
    case 'created-no-first-run':
      return `created ${d.id}; no first run appeared (HCP Terraform queues one with the creation; start one there if the workspace needs it)`;
    case 'created-run':
      return `created ${d.id} at ${d.version ?? 'the module’s version'}: ${d.run === 'applied' ? 'run applied' : 'run planned no changes'}`;
    case 'internal-no-manifest':
    case 'internal-no-live':
    case 'internal-no-create-body':
      return internalSentence(action, d.code);
    default:
      return notDoneSentence(d);
  }
}

const INTERNAL_MISSING = { 'internal-no-manifest': 'manifest object', 'internal-no-live': 'live object', 'internal-no-create-body': 'body to send' } as const;

/** A planned change without what its planning always gives it: a bug, so the words say what to do about one. */
function internalSentence(action: Action, code: keyof typeof INTERNAL_MISSING): string {
  return `internal: the planned ${action} has no ${INTERNAL_MISSING[code]}, so nothing was sent: a bug in converge; make the plan again, and report it if this repeats`;
}

type Later = Exclude<OutcomeDetail, { code: 'done' | 'done-id' | 'already-gone' | 'protect-recorded' | 'dropped-no-id' | 'created-no-first-run' | 'created-run' | keyof typeof INTERNAL_MISSING }>;

/** What a workspace change did: "settings updated, 2 variable write(s)". */
function writtenSentence(d: { settings: boolean; variableWrites: number }): string {
  return [d.settings ? 'settings updated' : '', d.variableWrites > 0 ? `${d.variableWrites} variable write(s)` : ''].filter((s) => s !== '').join(', ') || 'recorded in state';
}

function upgradeEndedSentence(d: Extract<OutcomeDetail, { code: 'upgrade-ended' }>): string {
  const written = writtenSentence(d.written);
  const prefix = written === 'recorded in state' ? '' : `${written}; `;
  const e = d.ended;
  const end =
    e.run === 'applied'
      ? `upgrade run ${d.runId ?? '?'} applied`
      : e.run === 'no-changes'
        ? `upgrade run ${d.runId ?? '?'} planned no changes (${e.finalState})`
        : `nothing to upgrade: ${e.serviceMessage ?? 'no upgrade available'}`;
  return `${prefix}${end}${d.nowAt !== undefined ? ` (now at ${d.nowAt})` : ''}`;
}

/** What came before the run an outcome reports on. */
function stepSentence(s: RunStep): string {
  switch (s.step) {
    case 'created':
      return `created ${s.id} at ${s.version ?? 'the module’s version'}`;
    case 'written':
      return writtenSentence(s);
    case 'destroy':
      return 'destroy';
    case 'run':
      return `${s.purpose} run`;
    default:
      return assertNever(s, 'run step');
  }
}

/** HCP Terraform workspace outcomes, and why a change was skipped or waits. */
function notDoneSentence(d: Later): string {
  switch (d.code) {
    case 'recorded':
      return 'recorded in state';
    case 'module-enabled':
      return `enabled no-code provisioning for ${d.registryModule} at ${d.version} (${d.id})`;
    case 'written':
      return writtenSentence(d);
    case 'run-ended':
      return `${stepSentence(d.after)}: ${d.run === 'applied' ? 'run applied' : 'run planned no changes'}`;
    case 'safe-deleted':
      return `safe-deleted ${d.id}`;
    case 'orphaned':
      return 'orphaned: converge forgot it; the workspace and its resources stay in HCP Terraform';
    case 'destroyed':
      return `destroy run applied; ${d.deleted ? `safe-deleted ${d.id}` : `${d.id} was already gone (404)`}`;
    case 'upgrade-ended':
      return upgradeEndedSentence(d);
    case 'destroy-run-applied':
      return 'destroy run applied';
    case 'run-failed':
      return stepSentence(d.after);
    case 'run-interrupted':
      return `${stepSentence(d.after)}; its run was not followed to the end (converge was interrupted; the next apply follows it): ${d.url}`;
    case 'cancelled':
      return 'cancelled before it started';
    case 'lock-lost':
      return 'not started: the state lock was lost';
    case 'earlier-not-recorded':
      return 'not started: an earlier change could not be recorded in the state';
    case 'protected':
      return 'protected: converge does not delete it';
    case 'dependent-not-deleted':
      return `${d.dependent} (which depends on it) was not deleted`;
    case 'deletion-not-done':
      return 'its deletion did not succeed';
    case 'dependency-not-done':
      return `${d.dependency} (which it depends on) ${d.status === 'failed' ? 'failed' : 'was skipped'}`;
    case 'canary-failed':
      if (d.cause === 'tfe.run.blocked-by-decision' || d.cause === 'tfe.run.needs-decision') return `not started: the upgrade of ${d.canary} (the canary) is held by a run that waits for a decision in HCP Terraform`;
      return `not started: the upgrade of ${d.canary} (the canary) failed${d.cause ? ` (${d.cause})` : ''}`;
    case 'upgrade-failed':
      return `not started: the upgrade of ${d.workspace} failed`;
    case 'max-failures':
      return `not started: ${d.failed.length} upgrades of module ${d.module} failed (upgrade.maxFailures: ${d.maxFailures}), ${d.failed.slice(0, 3).join(', ')}${d.failed.length > 3 ? ', …' : ''}`;
    case 'awaiting-upgrade-run':
      return `upgrade run ${d.runId} is planned and waits for confirmation (upgrade.confirm: manual): ${d.url}`;
    case 'awaiting-run':
      return `${stepSentence(d.after)}: the run is planned and awaits confirmation (upgrade.confirm: manual): ${d.url}`;
    default:
      return assertNever(d, 'outcome detail');
  }
}

/** What a not-succeeded outcome says after its status: a coded failure goes on with its error's message. */
function said(o: ApplyOutcome): string | undefined {
  if (o.message !== undefined || o.detail === undefined) return o.message;
  const sentence = outcomeSentence(o.action, o.detail);
  return o.status === 'failed' && o.error ? `${sentence}: ${o.error.message}` : sentence;
}

function headText(o: ApplyOutcome, change: Change | undefined): string {
  const detail = said(o) ?? o.error?.message;
  const tail = detail ? `: ${detail}` : '';
  switch (o.status) {
    case 'succeeded':
      return succeededText(o, change);
    case 'failed':
      // The remote change was made; only its record is missing (engine/apply-context.ts).
      if (o.error?.code === 'state.write-failed') return `${done(o.action)} on the service, but NOT recorded in the state: ${o.error.message}`;
      return `FAILED to ${o.action}${tail}`;
    case 'skipped':
      return `skipped${tail}`;
    case 'awaiting-confirmation':
      return `awaiting confirmation${tail}`;
    case 'cancelled':
      return `cancelled${tail}`;
    default:
      return assertNever(o.status, 'outcome status');
  }
}

export function applySummaryLine(result: ApplyResult): string {
  const c = result.counts;
  if (c.failed + c.skipped + c.awaiting + (c.cancelled ?? 0) === 0) return `Apply complete: ${c.succeeded} succeeded.`;
  const counts = `${c.succeeded} succeeded, ${c.failed} failed, ${c.skipped} skipped, ${c.awaiting} awaiting confirmation${c.cancelled ? `, ${c.cancelled} cancelled` : ''}`;
  // Not "complete": a run waits for a person (exit 3 without failures); the line says what to do.
  if (c.awaiting > 0) return `Apply incomplete: ${counts}. Confirm each run awaiting confirmation at its URL; the next plan records it.`;
  return `Apply complete: ${counts}.`;
}

/**
 * `plan` (the plan that was applied) lets each line name the fields updated and the versions
 * upgraded between; without it the lines say only what the providers reported.
 */
export function renderApplyResultText(result: ApplyResult, plan?: { changes: readonly Change[] }): string {
  const changes = new Map<string, Change>();
  for (const c of plan?.changes ?? []) if (c.action !== 'no-op') changes.set(`${addressKey(c)} ${c.action}`, c);
  const width = Math.max(0, ...result.outcomes.map((o) => addressKey(o).length));
  const out: string[] = [];
  for (const o of result.outcomes) {
    const address = addressKey(o);
    const pad = ' '.repeat(width - address.length);
    out.push(`  ${actionSymbol(o.action)} ${address}${pad}  ${headText(o, changes.get(`${address} ${o.action}`))}`);
    const indent = ' '.repeat(width + 6);
    if (o.error?.hint) out.push(`${indent}hint: ${o.error.hint}`);
    if (o.runUrl) out.push(`${indent}run: ${o.runUrl}`);
  }
  if (out.length > 0) out.push('');
  out.push(applySummaryLine(result));
  return out.join('\n') + '\n';
}

/**
 * `apply --json`: the result as data; an error keeps only its stable code and message (no stack, no
 * cause). An outcome with a `detail` code also gets its sentence as `message`, as format 1.0 had it.
 */
/** Version of the `apply --json` document (schemas/apply-result.json), as plan and drift JSON carry theirs. */
export const APPLY_RESULT_FORMAT_VERSION = '1.0';

export function renderApplyResultJson(result: ApplyResult): string {
  const outcomes = result.outcomes.map((o) => (o.detail !== undefined && o.message === undefined ? { ...o, message: said(o) } : o));
  return JSON.stringify({ formatVersion: APPLY_RESULT_FORMAT_VERSION, ...result, outcomes }, (k, v: unknown) => (k === 'error' && v instanceof Error ? { code: (v as Error & { code?: string }).code, message: v.message } : v), 2);
}
