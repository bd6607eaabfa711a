import { drift } from '../../operations/plan.js';
import { hasChanges } from '../../plan/types.js';
import type { JsonValue } from '../../model/json.js';
import { renderDriftJson, renderDriftMarkdown, renderDriftText } from '../../views/drift.js';
import { EXIT, type Host } from '../host.js';
import { appendStepSummary } from './plan.js';

/** Read-only: exit 0 in sync, 2 drift (or pending changes), 1 error. */
export async function driftCommand(
  host: Host,
  paths: string[],
  opts: { json?: boolean; markdown?: boolean; region?: string },
): Promise<number> {
  const result = await drift(host, { paths, ...(opts.region ? { region: opts.region } : {}) });
  if (!result) return EXIT.error;
  const { plan } = result.run;
  if (host.streaming) host.streamResult = { result: JSON.parse(renderDriftJson(plan)) as JsonValue, message: plan.drift.length > 0 ? `Drift: ${plan.drift.length} found.` : 'No drift.' };
  else if (opts.json) host.out(renderDriftJson(plan) + '\n');
  else if (opts.markdown) host.out(renderDriftMarkdown(plan)); // ends in a newline and fits 65 536 as is
  else host.out(renderDriftText(plan, { color: host.color }));
  await appendStepSummary(host, renderDriftMarkdown(plan));
  return plan.drift.length > 0 || hasChanges(plan) ? EXIT.changes : EXIT.ok;
}
