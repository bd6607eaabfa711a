import { canonicalJson } from '../../plan/canonical.js';
import type { JsonValue } from '../../model/json.js';
import type { NoCodeModuleWire, VariableOptionWire } from './wire.js';

/*
 * What a read after a lost or failed write must see to count the write as done (docs/architecture.md "Rules the code keeps": a
 * non-idempotent write is sent again only after a read finds it was not done).
 */

/** What `PATCH /no-code-modules/:id` sends (client.ts NoCodeModuleBody), as far as a read shows it. */
export interface ModuleWrite {
  versionPin: string;
  enabled: boolean;
  variableOptions: readonly { variableName: string; variableType: string; options: JsonValue[] }[];
}

/**
 * The module holds what the PATCH sent: same pin, same `enabled`, and the same set of variable options (the
 * PATCH replaces the set, docs/reference/hcp-terraform-api.md §1.2; no options and an empty list both mean free text, §1.3).
 */
export function moduleHolds(module: NoCodeModuleWire, options: readonly VariableOptionWire[], sent: ModuleWrite): boolean {
  if (module.versionPin !== sent.versionPin || (module.enabled ?? true) !== sent.enabled) return false;
  const key = (o: { variableName: string; variableType: string; options: JsonValue[] | null }) => canonicalJson([o.variableName, o.variableType, o.options ?? []]);
  const have = options.map(key).sort();
  const want = sent.variableOptions.map(key).sort();
  return canonicalJson(have) === canonicalJson(want);
}

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
