import { appendFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { plan as planOperation } from '../../operations/plan.js';
import { hasChanges } from '../../plan/types.js';
import type { JsonValue } from '../../model/json.js';
import { renderPlanJson } from '../../views/plan-json.js';
import { renderPlanMarkdown } from '../../views/plan-markdown.js';
import { renderPlanText } from '../../views/plan-text.js';
import { EXIT, type Host } from '../host.js';
import { destroyFlags } from './apply.js';

export interface PlanFlags {
  json?: boolean;
  markdown?: boolean;
  detailedExitcode?: boolean;
  out?: string;
  target?: string[];
  rewrite?: string[];
  region?: string;
  adopt?: string[];
  adoptAll?: boolean;
  allowEmpty?: boolean;
  refreshOnly?: boolean;
  destroy?: boolean;
  deletion?: string;
}

export async function planCommand(host: Host, paths: string[], opts: PlanFlags): Promise<number> {
  const result = await planOperation(host, {
    paths,
    targets: opts.target ?? [],
    rewrite: opts.rewrite ?? [],
    adopt: opts.adopt ?? [],
    adoptAll: opts.adoptAll === true,
    allowEmpty: opts.allowEmpty === true,
    refreshOnly: opts.refreshOnly === true,
    ...destroyFlags(opts),
    ...(opts.region ? { region: opts.region } : {}),
  });
  if (!result) return EXIT.error;
  const { plan } = result.run;
  if (host.streaming) host.streamResult = { result: JSON.parse(renderPlanJson(plan)) as JsonValue, message: hasChanges(plan) ? `Plan: ${plan.changes.filter((c) => c.action !== 'no-op').length} to change.` : 'No changes.' };
  else if (opts.json) host.out(renderPlanJson(plan) + '\n');
  else if (opts.markdown) host.out(renderPlanMarkdown(plan)); // ends in a newline and fits 65 536 as is
  else host.out(renderPlanText(plan, { color: host.color }));
  if (opts.out) {
    await writeFile(resolve(host.cwd, opts.out), result.saved, { mode: 0o600 });
    host.err(`Saved the plan to ${opts.out}. Apply exactly this plan with: converge apply --plan ${opts.out}\n`);
  }
  await appendStepSummary(host, renderPlanMarkdown(plan, { title: 'converge plan' }));
  if (opts.detailedExitcode && hasChanges(plan)) return EXIT.changes;
  return EXIT.ok;
}

/** GitHub Actions job summary: appended when $GITHUB_STEP_SUMMARY names a file. */
export async function appendStepSummary(host: Host, markdown: string): Promise<void> {
  const file = host.env.GITHUB_STEP_SUMMARY;
  if (host.env.GITHUB_ACTIONS !== 'true' || !file) return;
  await appendFile(file, host.redactor.redact(markdown) + '\n');
}
