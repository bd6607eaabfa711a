import { assertNever, type Action } from '../model/action.js';
import type { ApplyOutcome } from '../providers/provider.js';
import type { ApplyResult } from '../engine/types.js';

/*
 * Result of an apply, for people. When everything succeeded the closing line says only that
 * ("Apply complete: 3 succeeded."), so a clean run prints no "failed" anywhere; otherwise every count.
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

function line(o: ApplyOutcome): string[] {
  const address = `${o.kind}/${o.name}`;
  let head: string;
  switch (o.status) {
    case 'succeeded':
      head = `  ok        ${address}: ${done(o.action)}`;
      break;
    case 'failed':
      head = `  FAILED    ${address}: ${o.action} failed`;
      break;
    case 'skipped':
      head = `  skipped   ${address}: ${o.action} not attempted`;
      break;
    case 'awaiting-confirmation':
      head = `  waiting   ${address}: ${o.action} awaiting confirmation`;
      break;
    default:
      return assertNever(o.status, 'outcome status');
  }
  const detail = o.message ?? o.error?.message;
  const out = [detail ? `${head}: ${detail}` : head];
  if (o.error?.hint) out.push(`            hint: ${o.error.hint}`);
  if (o.runUrl) out.push(`            run: ${o.runUrl}`);
  return out;
}

export function applySummaryLine(result: ApplyResult): string {
  const c = result.counts;
  if (c.failed + c.skipped + c.awaiting === 0) return `Apply complete: ${c.succeeded} succeeded.`;
  return `Apply complete: ${c.succeeded} succeeded, ${c.failed} failed, ${c.skipped} skipped, ${c.awaiting} awaiting confirmation.`;
}

export function renderApplyResultText(result: ApplyResult): string {
  const out: string[] = [];
  for (const o of result.outcomes) out.push(...line(o));
  if (out.length > 0) out.push('');
  out.push(applySummaryLine(result));
  return out.join('\n') + '\n';
}
