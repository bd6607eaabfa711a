import { resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { ConvergeError } from '../../diagnostics/errors.js';
import { apply } from '../../operations/apply.js';
import { hasChanges } from '../../plan/types.js';
import { addressKey, type Address } from '../../model/kinds.js';
import type { SavedPlan } from '../../plan/types.js';
import { parseSavedPlan } from '../../plan/serialize.js';
import { renderApplyResultJson, renderApplyResultText } from '../../views/apply-result.js';
import { renderPlanText } from '../../views/plan-text.js';
import { parseFlagDuration } from '../durations.js';
import { parseFlagInt } from '../flag-numbers.js';
import { EXIT, type Host } from '../host.js';
import { readSavedPlanFile } from '../saved-plan-file.js';
import { appendStepSummary } from './plan.js';
import { renderPlanMarkdown } from '../../views/plan-markdown.js';

export interface ApplyFlags {
  autoApprove?: boolean;
  plan?: string;
  target?: string[];
  rewrite?: string[];
  parallelism?: string;
  runTimeout?: string;
  lockTimeout?: string;
  pollInterval?: string;
  json?: boolean;
}

export async function applyCommand(host: Host, argPaths: string[], opts: ApplyFlags): Promise<number> {
  let saved: SavedPlan | undefined;
  let paths = argPaths;
  let targets = opts.target ?? [];
  let rewrite = opts.rewrite ?? [];
  if (opts.plan) {
    // A saved plan carries its own paths, targets and rewrites: anything given beside it would be ignored.
    const beside = [
      ...(argPaths.length === 1 && argPaths[0] === '.' ? [] : argPaths),
      ...(opts.target ?? []).map((t) => `--target ${t}`),
      ...(opts.rewrite ?? []).map((r) => `--rewrite ${r}`),
    ];
    if (beside.length > 0) {
      throw new ConvergeError('apply.plan-with-arguments', `apply --plan takes no manifest paths, --target or --rewrite (given: ${beside.join(' ')})`, {
        source: 'user',
        hint: 'the saved plan already records the paths and targets it was made with: run `converge apply --plan FILE` alone, or make a new plan with these arguments',
      });
    }
    const file = resolve(host.cwd, opts.plan);
    saved = parseSavedPlan(await readSavedPlanFile(file, `--plan ${opts.plan}`), file);
    paths = saved.saved.paths.map((p) => resolve(host.cwd, p));
    targets = saved.saved.targets;
    rewrite = saved.saved.rewrite ?? [];
  } else if (!opts.autoApprove && !(process.stdin.isTTY && process.stderr.isTTY)) {
    throw new ConvergeError('apply.needs-approval', 'refusing to apply without confirmation: no terminal to ask on', {
      source: 'user',
      hint: 'pass --auto-approve, or apply a reviewed plan with `converge plan --out plan.json` then `converge apply --plan plan.json`',
    });
  }
  const runTimeoutMs = parseFlagDuration(opts.runTimeout ?? '30m', '--run-timeout', { positive: true });
  const lockTimeoutMs = parseFlagDuration(opts.lockTimeout ?? '0s', '--lock-timeout');
  const pollIntervalMs = parseFlagDuration(opts.pollInterval ?? '1s', '--poll-interval', { positive: true });
  const concurrency = parseFlagInt(opts.parallelism ?? '4', '--parallelism', { min: 1, max: 10_000 });

  const report = await apply(host, {
    paths,
    targets,
    rewrite,
    ...(saved ? { savedPlan: saved } : {}),
    lockTimeoutMs,
    options: { runTimeoutMs, pollIntervalMs, concurrency },
    approve: async (run) => {
      host.err(renderPlanText(run.plan, { color: host.color }));
      if (opts.autoApprove || (await confirm(host))) return true;
      host.err('Apply cancelled.\n');
      return false;
    },
  });
  switch (report.status) {
    case 'invalid':
    case 'cancelled':
      return EXIT.error;
    case 'no-changes':
      host.out('No changes. Live state matches the manifests.\n');
      return EXIT.ok;
    case 'applied':
      break;
  }
  const { run, result } = report;
  const adopted = result.adopted ?? [];
  if (opts.json) host.out(renderApplyResultJson(result) + '\n');
  else if (!hasChanges(run.plan)) host.out(`No changes to live objects. ${adoptedLine(adopted)}\n`);
  else host.out(renderApplyResultText(result, run.plan) + (adopted.length > 0 ? `${adoptedLine(adopted)}\n` : ''));
  await appendStepSummary(host, renderPlanMarkdown(run.plan, { title: 'converge apply' }));
  return result.counts.failed > 0 ? EXIT.error : EXIT.ok;
}

/** Adoptions recorded without a request (decisions.md §9). */
function adoptedLine(adopted: readonly Address[]): string {
  const n = adopted.length;
  return `Recorded ${n} existing object${n === 1 ? '' : 's'} as owned (nothing was sent): ${adopted.map(addressKey).join(', ')}.`;
}

async function confirm(host: Host): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question("\nDo you want to perform these actions? Only 'yes' will be accepted: ");
    return answer.trim() === 'yes';
  } finally {
    rl.close();
    host.err('\n');
  }
}
