import { ConvergeError, errorMessage, isConvergeError } from '../../diagnostics/errors.js';
import type { OutcomeDetail } from '../../plan/codes.js';
import type { ApplyOutcome, OutcomeStatus, PlannedChange } from '../provider.js';

/** An outcome for one planned change: what happened as a code with data (views word it), or a sentence. */
export function outcome(p: PlannedChange, status: OutcomeStatus, said: string | OutcomeDetail, extra: { error?: ConvergeError; runUrl?: string | null } = {}): ApplyOutcome {
  return {
    kind: p.change.kind,
    name: p.change.name,
    action: p.change.action,
    status,
    ...(typeof said === 'string' ? { message: said } : { detail: said }),
    ...(extra.error ? { error: extra.error } : {}),
    ...(extra.runUrl ? { runUrl: extra.runUrl } : {}),
  };
}

/** A thrown error as a failed outcome: coded errors keep their code; anything else is a remote/network failure. */
export function failed(p: PlannedChange, e: unknown): ApplyOutcome {
  const error = isConvergeError(e)
    ? e
    : new ConvergeError('tfe.request-failed', `request to HCP Terraform failed: ${errorMessage(e)}`, { source: 'remote', cause: e, retryable: true });
  // A 422 mapped back to the manifest (errors.ts) says where, as the CLI's own errors do: the
  // outcome message is what a person reads after apply.
  const where = error.range ? ` (on ${error.range.file} line ${error.range.start.line}, column ${error.range.start.col})` : '';
  return outcome(p, 'failed', `${error.message}${where}`, { error });
}
