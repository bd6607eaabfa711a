import { resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { ConvergeError } from '../../diagnostics/errors.js';
import { applyPlan, findStaleness } from '../../engine/index.js';
import { adoptions, hasChanges } from '../../plan/types.js';
import { addressKey, type Address } from '../../model/kinds.js';
import type { SavedPlan } from '../../plan/types.js';
import { parseSavedPlan } from '../../plan/serialize.js';
import type { Diagnostic } from '../../diagnostics/types.js';
import { loadManifests } from '../../manifest/index.js';
import { renderApplyResultText } from '../../views/apply-result.js';
import { renderPlanText } from '../../views/plan-text.js';
import { parseFlagDuration } from '../durations.js';
import { parseFlagInt } from '../flag-numbers.js';
import { EXIT, type Host } from '../host.js';
import { reportDiagnostics, stateBackendFor } from '../session.js';
import { readSavedPlanFile } from '../saved-plan-file.js';
import { openLockedStore } from '../state-lock.js';
import { appendStepSummary, openPlanSession } from './plan.js';
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

  // The lock is taken before live state is read, so two applies never plan from the same state.
  const manifests = await loadManifests(paths, { cwd: host.cwd, env: host.env });
  if (!reportDiagnostics(host, manifests.diagnostics, manifests.sources)) return EXIT.error;
  const store = await openLockedStore(host, stateBackendFor(host, manifests.desired.settings), 'apply', lockTimeoutMs);
  try {
    const session = await openPlanSession(host, paths, { target: targets, rewrite, state: store.doc });
    if (!session) return EXIT.error;
    try {
      const { run } = session;
      if (saved) {
        const stale = findStaleness(saved, run);
        const planned = saved.saved.state?.serial;
        if (stale.length > 0 && planned !== undefined && store.doc.serial > planned && !hasChanges(run.plan)) {
          throw new ConvergeError('apply.plan-already-applied', `this saved plan was already applied: the state moved on since it was made (serial ${planned} → ${store.doc.serial}) and live state now matches the manifests`, {
            source: 'user',
            hint: 'nothing is left to do; run `converge plan` to check, and save a new plan for the next change',
          });
        }
        if (stale.length > 0) {
          const lines = stale.map((s) => `  - ${s.kind}/${s.name}${s.field ? ` (${s.field})` : ''}: ${s.message}`);
          throw new ConvergeError('apply.stale-plan', `the saved plan is stale: live state or the manifests changed since it was made\n${lines.join('\n')}`, {
            source: 'user',
            hint: 'run `converge plan --out FILE` again, review it, and apply the new plan',
          });
        }
      }
      const changing = hasChanges(run.plan);
      if (!changing && adoptions(run.plan).length === 0) {
        host.out('No changes. Live state matches the manifests.\n');
        return EXIT.ok;
      }
      if (!saved) {
        host.err(renderPlanText(run.plan, { color: host.color }));
        if (!opts.autoApprove && !(await confirm(host))) {
          host.err('Apply cancelled.\n');
          return EXIT.error;
        }
      }
      const preflight: Diagnostic[] = [];
      const kindsWithChanges = new Set(run.plan.changes.filter((c) => c.action !== 'no-op').map((c) => c.kind));
      for (const p of session.providers) {
        const kinds = p.kinds.filter((k) => kindsWithChanges.has(k));
        if (kinds.length > 0 && p.preflight) preflight.push(...(await p.preflight(session.ctx, kinds)));
      }
      if (!reportDiagnostics(host, preflight, session.sources)) return EXIT.error;

      host.phase('applying', run.plan.changes.filter((c) => c.action !== 'no-op').length);
      const result = await applyPlan(run, {
        providers: session.providers,
        store,
        ctx: session.ctx,
        options: { runTimeoutMs, pollIntervalMs, concurrency },
      });
      host.endPhase();
      if (opts.json) host.out(JSON.stringify(result, (k, v: unknown) => (k === 'error' && v instanceof Error ? { code: (v as ConvergeError).code, message: v.message } : v), 2) + '\n');
      else if (!changing) host.out(`No changes to live objects. ${adoptedLine(result.adopted ?? [])}\n`);
      else host.out(renderApplyResultText(result, run.plan) + ((result.adopted ?? []).length > 0 ? `${adoptedLine(result.adopted ?? [])}\n` : ''));
      await appendStepSummary(host, renderPlanMarkdown(run.plan, { title: 'converge apply' }));
      // Changes skipped because the lock was lost are not failures, but the run did not finish its work.
      const lost: unknown = store.lockLost?.aborted ? store.lockLost.reason : undefined;
      if (lost !== undefined) throw lost;
      return result.counts.failed > 0 ? EXIT.error : EXIT.ok;
    } finally {
      await session.close();
    }
  } finally {
    await store.close();
  }
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
