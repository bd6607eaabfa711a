import { ConvergeError, errorMessage, isConvergeError } from '../diagnostics/errors.js';
import type { OutcomeDetail } from '../plan/codes.js';
import type { ApplyOutcome, OutcomeStatus, PlannedChange } from './provider.js';

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

/** The provider-specific part of a failure: its error code for an uncoded throw, and the service's name for people. */
export interface ServiceFailure {
  code: string;
  service: string;
}

/**
 * A thrown error as a failed outcome. Coded errors keep their code. Anything else escaped the provider's
 * own mapping while talking to the service (an answer that would not parse, a read-back that could not
 * tell), so it is the service's side and a rerun may pass: remote, retryable, naming the object.
 */
export function failedOutcome(p: PlannedChange, e: unknown, failure: ServiceFailure): ApplyOutcome {
  const error = isConvergeError(e)
    ? e
    : new ConvergeError(failure.code, `${p.change.kind}/${p.change.name}: request to ${failure.service} failed: ${errorMessage(e)}`, {
        source: 'remote',
        cause: e,
        retryable: true,
      });
  // An error mapped back to the manifest (a 422's pointer) says where, as the CLI's own errors do: the
  // outcome message is what a person reads after apply.
  const where = error.range ? ` (on ${error.range.file} line ${error.range.start.line}, column ${error.range.start.col})` : '';
  return outcome(p, 'failed', `${error.message}${where}`, { error });
}
