/*
 * What a read after a lost or failed write must see to count the write as done (docs/architecture.md "Rules the code keeps": a
 * non-idempotent write is sent again only after a read finds it was not done).
 */

/**
 * Run statuses that show a confirmation took effect: `confirmed` and every apply phase after it (see
 * docs/reference/hcp-terraform-api.md §3, RUN; go-tfe `RunStatus`: pre_apply_running, pre_apply_completed, queuing_apply, apply_queued,
 * applying, applied, post_apply_running, post_apply_completed). A later plan phase (`cost_estimating`,
 * `policy_checking`, `post_plan_running`, …) or an end without applying does not: only the run's own status, or
 * its `confirmed-at` timestamp, says it was confirmed.
 */
const CONFIRMED = new Set([
  'confirmed',
  'pre_apply_running',
  'pre_apply_completed',
  'queuing_apply',
  'apply_queued',
  'applying',
  'applied',
  'post_apply_running',
  'post_apply_completed',
]);

/** The run (or upgrade) was confirmed: its status is an apply phase, or `status-timestamps` carries `confirmed-at`. */
export function showsConfirmed(status: string, timestamps: Readonly<Record<string, unknown>> | undefined): boolean {
  return CONFIRMED.has(status) || typeof timestamps?.['confirmed-at'] === 'string';
}
