import { assertNever, type Action } from '../model/action.js';
import { addressKey } from '../model/kinds.js';
import type { ApplyOutcome } from '../providers/provider.js';
import type { ApplyResult } from '../engine/types.js';
import type { Change } from '../plan/types.js';
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

/**
 * The succeeded line's text. A provider message that already starts with the verb ("created rule
 * 0876…") says what happened by itself; a bare verb ("created") adds nothing; anything else is
 * detail after the verb and what the plan knew.
 */
function succeededText(o: ApplyOutcome, change: Change | undefined): string {
  const verb = done(o.action);
  const message = o.message?.trim() ?? '';
  if (message === verb || message === '') return `${verb}${planned(change)}`;
  if (message.startsWith(`${verb} `)) return message;
  return `${verb}${planned(change)}: ${message}`;
}

function headText(o: ApplyOutcome, change: Change | undefined): string {
  const detail = o.message ?? o.error?.message;
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
    default:
      return assertNever(o.status, 'outcome status');
  }
}

export function applySummaryLine(result: ApplyResult): string {
  const c = result.counts;
  if (c.failed + c.skipped + c.awaiting === 0) return `Apply complete: ${c.succeeded} succeeded.`;
  return `Apply complete: ${c.succeeded} succeeded, ${c.failed} failed, ${c.skipped} skipped, ${c.awaiting} awaiting confirmation.`;
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

/** `apply --json`: the result as data; an error keeps only its stable code and message (no stack, no cause). */
export function renderApplyResultJson(result: ApplyResult): string {
  return JSON.stringify(result, (k, v: unknown) => (k === 'error' && v instanceof Error ? { code: (v as Error & { code?: string }).code, message: v.message } : v), 2);
}
