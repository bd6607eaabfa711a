import type { ApplyOutcome, PlannedChange } from '../provider.js';
import { failedOutcome } from '../outcome.js';

export { outcome } from '../outcome.js';

/** A thrown error as a failed outcome (see providers/outcome.ts). */
export function failed(p: PlannedChange, e: unknown): ApplyOutcome {
  return failedOutcome(p, e, { code: 'tfe.request-failed', service: 'HCP Terraform' });
}
