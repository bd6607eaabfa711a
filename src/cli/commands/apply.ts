import { resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { ConvergeError } from '../../diagnostics/errors.js';
import { apply, type ApplyRequest } from '../../operations/apply.js';
import { NOTHING_TO_DESTROY, NOTHING_TO_REFRESH } from '../../views/plan-notices.js';
import { hasChanges } from '../../plan/types.js';
import { addressKey, type Address } from '../../model/kinds.js';
import type { SavedPlan } from '../../plan/types.js';
import type { ApplyResult } from '../../engine/types.js';
import type { JsonValue } from '../../model/json.js';
import { parseSavedPlan } from '../../plan/serialize.js';
import { renderApplyResultJson, renderApplyResultText } from '../../views/apply-result.js';
import { renderPlanText } from '../../views/plan-text.js';
import { parseFlagDuration } from '../durations.js';
import { parseFlagInt } from '../flag-numbers.js';
import { EXIT, type Host } from '../host.js';
import { STOPPED_EXIT, watchInterrupts, type Interrupts } from '../interrupts.js';
import { readSavedPlanFile, refuseSavedPlanAsManifest } from '../saved-plan-file.js';
import { appendStepSummary } from './plan.js';
import { renderPlanMarkdown } from '../../views/plan-markdown.js';

export interface ApplyFlags {
  autoApprove?: boolean;
  plan?: string;
  target?: string[];
  rewrite?: string[];
  adopt?: string[];
  adoptAll?: boolean;
  allowEmpty?: boolean;
  refreshOnly?: boolean;
  parallelism?: string;
  runTimeout?: string;
  lockTimeout?: string;
  pollInterval?: string;
  json?: boolean;
  /** `converge destroy`: apply a destroy plan (decisions.md §30). */
  destroy?: boolean;
  deletion?: string;
}

/**
 * Ctrl-C or SIGTERM stops an apply gracefully: no new change starts, the one in flight finishes and
 * is recorded, the lock is released, and the exit code is 130 (SIGINT) or 143 (SIGTERM).
 */
export async function applyCommand(host: Host, argPaths: string[], opts: ApplyFlags): Promise<number> {
  const interrupts = watchInterrupts(host);
  try {
    const stopped = { nothingLeft: false };
    const code = await applyUntilStopped(host, argPaths, opts, interrupts, stopped);
    const sig = interrupts.received;
    if (sig === undefined) return code;
    const rest = stopped.nothingLeft ? '' : ' Run `converge apply` again to do the rest.';
    host.err(`Stopped by ${sig}: what was done is recorded in the state, and the lock is released.${rest}\n`);
    return STOPPED_EXIT[sig];
  } finally {
    interrupts.dispose();
  }
}

async function applyUntilStopped(host: Host, argPaths: string[], opts: ApplyFlags, interrupts: Interrupts, stopped: { nothingLeft: boolean }): Promise<number> {
  let saved: SavedPlan | undefined;
  let paths = argPaths;
  let targets = opts.target ?? [];
  let rewrite = opts.rewrite ?? [];
  let flags: Pick<ApplyRequest, 'adopt' | 'adoptAll' | 'allowEmpty' | 'refreshOnly' | 'destroy' | 'deletion'> = {
    adopt: opts.adopt ?? [],
    adoptAll: opts.adoptAll === true,
    allowEmpty: opts.allowEmpty === true,
    refreshOnly: opts.refreshOnly === true,
    ...destroyFlags(opts),
  };
  if (!opts.plan) await refuseSavedPlanAsManifest(argPaths.map((p) => resolve(host.cwd, p)), argPaths, 'apply');
  if (opts.plan) {
    // A saved plan carries its own paths, targets and rewrites: anything given beside it would be ignored.
    const beside = [
      ...(argPaths.length === 1 && argPaths[0] === '.' ? [] : argPaths),
      ...(opts.target ?? []).map((t) => `--target ${t}`),
      ...(opts.rewrite ?? []).map((r) => `--rewrite ${r}`),
      ...(opts.adopt ?? []).map((r) => `--adopt ${r}`),
      ...(opts.adoptAll === true ? ['--adopt-all'] : []),
      ...(opts.allowEmpty === true ? ['--allow-empty'] : []),
      ...(opts.refreshOnly === true ? ['--refresh-only'] : []),
      ...(opts.deletion !== undefined ? [`--deletion ${opts.deletion}`] : []),
    ];
    if (beside.length > 0) {
      throw new ConvergeError('apply.plan-with-arguments', `apply --plan takes no manifest paths, --target, --rewrite, --adopt, --adopt-all, --allow-empty or --refresh-only (given: ${beside.join(' ')})`, {
        source: 'user',
        hint: 'the saved plan already records the paths and targets it was made with: run `converge apply --plan FILE` alone, or make a new plan with these arguments',
      });
    }
    const file = resolve(host.cwd, opts.plan);
    saved = parseSavedPlan(await readSavedPlanFile(file, `--plan ${opts.plan}`), file);
    paths = saved.saved.paths.map((p) => resolve(host.cwd, p));
    targets = saved.saved.targets;
    rewrite = saved.saved.rewrite ?? [];
    flags = {
      adopt: saved.saved.adopt ?? [],
      adoptAll: saved.saved.adoptAll === true,
      allowEmpty: saved.saved.allowEmpty === true,
      refreshOnly: saved.saved.refreshOnly === true,
      ...destroyFlags(saved.saved),
    };
  }
  const runTimeoutMs = parseFlagDuration(opts.runTimeout ?? '30m', '--run-timeout', { positive: true });
  const lockTimeoutMs = parseFlagDuration(opts.lockTimeout ?? '0s', '--lock-timeout');
  const pollIntervalMs = parseFlagDuration(opts.pollInterval ?? '1s', '--poll-interval', { positive: true });
  const concurrency = parseFlagInt(opts.parallelism ?? '4', '--parallelism', { min: 1, max: 10_000 });

  const report = await apply(host, {
    paths,
    targets,
    rewrite,
    ...flags,
    ...(saved ? { savedPlan: saved } : {}),
    lockTimeoutMs,
    options: { runTimeoutMs, pollIntervalMs, concurrency },
    signal: interrupts.signal,
    // Asked only when there is something to apply: with nothing to do, no terminal is needed (as Terraform).
    // A `yes` typed at the prompt, under a plan that names the adoptions, is consent to them (docs/decisions.md).
    interactive: !saved && opts.autoApprove !== true,
    approve: async (run) => {
      host.err(renderPlanText(run.plan, { color: host.color }));
      if (opts.autoApprove) return true;
      if (!(process.stdin.isTTY && process.stderr.isTTY)) {
        throw new ConvergeError('apply.needs-approval', 'refusing to apply without confirmation: no terminal to ask on', {
          source: 'user',
          hint: 'pass --auto-approve, or apply a reviewed plan with `converge plan --out plan.json` then `converge apply --plan plan.json`',
        });
      }
      if (await confirm(host)) return true;
      host.err('Apply cancelled.\n');
      return false;
    },
  });
  switch (report.status) {
    case 'invalid':
    case 'cancelled':
      return EXIT.error;
    case 'no-changes':
      // With --json, still the apply result document: nothing sent, so no outcome.
      if (host.streaming) host.streamResult = { result: JSON.parse(renderApplyResultJson(EMPTY_RESULT)) as JsonValue, message: 'No changes.' };
      else if (opts.json) host.out(renderApplyResultJson(EMPTY_RESULT) + '\n');
      else host.out(flags.refreshOnly === true ? `${NOTHING_TO_REFRESH}\n` : flags.destroy === true ? `${NOTHING_TO_DESTROY}\n` : 'No changes. Live state matches the manifests.\n');
      return EXIT.ok;
    case 'stopped-before-start':
      host.err('Nothing was sent: the stop came before the apply started.\n');
      return EXIT.error;
    case 'applied':
      break;
  }
  const { run, result } = report;
  if (host.streaming) host.streamResult = { result: JSON.parse(renderApplyResultJson(result)) as JsonValue, message: streamMessage(result.counts) };
  else if (opts.json) host.out(renderApplyResultJson(result) + '\n');
  else if (!hasChanges(run.plan)) host.out(['No changes to live objects.', ...recordedLines(result)].join(' ') + '\n');
  else host.out(renderApplyResultText(result, run.plan) + recordedLines(result).map((l) => `${l}\n`).join(''));
  await appendStepSummary(host, renderPlanMarkdown(run.plan, { title: 'converge apply' }));
  if (report.lockLost !== undefined) throw report.lockLost;
  if (interrupts.received) {
    stopped.nothingLeft = result.counts.skipped === 0 && result.counts.failed === 0;
    host.err(stoppedLine(result.outcomes));
  }
  return result.counts.failed > 0 ? EXIT.error : result.counts.awaiting > 0 ? EXIT.awaiting : EXIT.ok;
}

const EMPTY_RESULT: ApplyResult = { outcomes: [], counts: { succeeded: 0, failed: 0, skipped: 0, awaiting: 0 } };

/** The `--json-stream` summary's words, as Terraform's `Apply complete!` line: the counts. */
function streamMessage(c: ApplyResult['counts']): string {
  return `Apply ${c.failed > 0 ? 'failed' : 'complete'}: ${c.succeeded} succeeded, ${c.failed} failed, ${c.skipped} skipped, ${c.awaiting} awaiting confirmation.`;
}

/**
 * What an interrupted apply did and left, by address. A run the stop left going on the service (an HCP
 * Terraform run converge stopped following: detail `run-interrupted`, status `cancelled`, or `succeeded` for a
 * workspace created) is recorded in flight, never failed: the next apply follows that same run.
 */
function stoppedLine(outcomes: ApplyResult['outcomes']): string {
  const stoppedFollowing = (o: ApplyResult['outcomes'][number]) => o.detail?.code === 'run-interrupted';
  const done = outcomes.filter((o) => o.status === 'succeeded' || o.status === 'awaiting-confirmation').length;
  const running = outcomes.filter(stoppedFollowing).map(addressKey);
  const left = outcomes.filter((o) => o.status === 'skipped').map(addressKey);
  const failed = outcomes.filter((o) => o.status === 'failed').length;
  if (left.length === 0 && failed === 0 && running.length === 0) return `Interrupted after the last change had started: all ${done} done.\n`;
  const parts = [
    `${done} of ${outcomes.length} change${outcomes.length === 1 ? '' : 's'} done`,
    ...(failed > 0 ? [`${failed} failed`] : []),
    ...(running.length > 0 ? [`still running on the service (the next apply follows the same run): ${running.join(', ')}`] : []),
    ...(left.length > 0 ? [`not started: ${left.join(', ')}`] : []),
  ];
  return `Interrupted: ${parts.join('; ')}.\n`;
}

/** `--destroy` (a saved plan's `destroy`) and `--deletion`, as the plan request takes them; a bad policy is the request's error. */
export function destroyFlags(opts: { destroy?: boolean; deletion?: string }): Pick<ApplyRequest, 'destroy' | 'deletion'> {
  return {
    ...(opts.destroy === true ? { destroy: true } : {}),
    ...(opts.deletion !== undefined ? { deletion: opts.deletion as NonNullable<ApplyRequest['deletion']> } : {}),
  };
}

/** Adoptions (decisions.md §9) and refreshes (§18) recorded without a request. */
function recordedLines(result: { adopted?: Address[]; refreshed?: Address[] }): string[] {
  const lines: string[] = [];
  const adopted = result.adopted ?? [];
  const refreshed = result.refreshed ?? [];
  const s = (n: number) => (n === 1 ? '' : 's');
  if (adopted.length > 0) lines.push(`Recorded ${adopted.length} existing object${s(adopted.length)} as owned (nothing was sent): ${adopted.map(addressKey).join(', ')}.`);
  if (refreshed.length > 0) lines.push(`Brought ${refreshed.length} state record${s(refreshed.length)} up to the live objects (nothing was sent): ${refreshed.map(addressKey).join(', ')}.`);
  return lines;
}

async function confirm(host: Host): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  // On a terminal readline reads Ctrl-C as a key, so the process gets no SIGINT: treat it as "no".
  const cancelled = new AbortController();
  rl.on('SIGINT', () => cancelled.abort());
  try {
    const answer = await rl.question("\nDo you want to perform these actions? Only 'yes' will be accepted: ", { signal: cancelled.signal });
    return answer.trim() === 'yes';
  } catch (e) {
    if (cancelled.signal.aborted) return false;
    throw e;
  } finally {
    rl.close();
    host.err('\n');
  }
}
