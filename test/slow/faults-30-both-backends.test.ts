import { describe, expect, it } from 'vitest';
import { mapLimit } from '../../src/async/map-limit.js';
import { libraryHost, plan } from '../../src/operations/index.js';
import {
  checkConsistency,
  createRequests,
  duplicateCreates,
  FAST,
  liveInventory,
  openWorld,
  readState,
  type Shape,
} from '../reliability/world.js';

/*
 * The goal: under 30 % faults, an apply converges within two runs for 20 of 20 seeds on
 * BOTH state backends, with no duplicate create. Before the Nomad state backend retried its own writes, 0 of 10 seeds converged on the Nomad
 * Variables backend: its head CAS write, lock acquire and release were never retried, and one lost
 * reply made every later state write of the run conflict with itself.
 *
 * Faults per seed: 30 % of requests to either simulator are answered 429 / 500 / 503 or reset before
 * the handler (7.5 % each, the simulators' seeded dice), and 10 % of the writes that reach a simulator
 * (POST, and PUT: every Variables write, lock operations included) are applied and then lose their reply
 * (the recording proxy). "Converges": the first or second `apply` exits 0, then, with faults off,
 * the plan has no change but no-ops (what `plan --detailed-exitcode` exits 0 on; the library's plan in this
 * process, as crash-safety.test.ts re-plans) and live objects equal the state and the manifests.
 * A benchmark-style run: figures go to docs/reliability.md. FAULT_SEEDS=n runs fewer seeds.
 *
 * Most of a seed's time is waiting, not work: the client's back-off after each injected 5xx (700–900 ms
 * times the retry number, as go-tfe) and 429. Each seed has its own sandbox, proxies and directory, so
 * FAULT_CONCURRENCY seeds (default 3) run at once per backend, and the two backends at once; the seeds,
 * their dice and every assertion are the same as one after another.
 */

const SEEDS = Number(process.env.FAULT_SEEDS ?? 20);
const BACKENDS = (process.env.FAULT_STATE ?? 'local,nomad').split(',') as ('local' | 'nomad')[];
const CONCURRENCY = Number(process.env.FAULT_CONCURRENCY ?? 3);
const SHAPE: Shape = { authMethods: 3, bindingRules: 2, modules: 1, workspacesPerModule: 2 };

interface SeedResult {
  seed: number;
  /** Applies until exit 0 (1 or 2), or 0 when neither did. */
  runs: number;
  converged: boolean;
  duplicates: number;
  inconsistencies: string[];
  faulted: number;
  lostReplies: number;
  requests: number;
  wallMs: number;
  failure?: string;
  /** Why the first apply failed, when it needed a second. */
  firstFailure?: string;
}

async function runSeed(state: 'local' | 'nomad', seed: number): Promise<SeedResult> {
  const world = await openWorld({ seed });
  try {
    const shape = { ...SHAPE, state };
    await world.writeShape(shape);
    const dice = { rate429: 0.075, rate500: 0.075, rate503: 0.075, rateReset: 0.075 };
    world.ws.sandbox.nomad.faults.set({ ...dice, seed });
    world.ws.sandbox.tfe.faults.set({ ...dice, seed: seed + 1000 });
    world.nomadProxy.setResetAfter(0.1, (m) => m === 'POST' || m === 'PUT');
    world.tfeProxy.setResetAfter(0.1, (m) => m === 'POST');
    const started = Date.now();
    let runs = 0;
    let failure: string | undefined;
    let firstFailure: string | undefined;
    for (let attempt = 1; attempt <= 2 && runs === 0; attempt++) {
      const a = await world.cli(['apply', '--auto-approve', '--parallelism', '4', ...FAST]);
      if (a.code === 0) runs = attempt;
      else failure = a.stderr.split('\n').filter((l) => /Error/.test(l)).slice(-2).join(' | ');
      if (attempt === 1) firstFailure = failure;
    }
    const wallMs = Date.now() - started;
    const simLog = world.ws.sandbox.log.entries();
    const faulted = simLog.filter((e) => e.fault !== undefined).length;
    const lostReplies = [...world.nomadProxy.log, ...world.tfeProxy.log].filter((r) => r.resetAfter).length;
    world.ws.sandbox.nomad.faults.reset();
    world.ws.sandbox.tfe.faults.reset();
    world.nomadProxy.setResetAfter(0);
    world.tfeProxy.setResetAfter(0);
    const replan = libraryHost({ cwd: world.ws.dir, env: world.env });
    const planned = await plan(replan, { paths: ['.'] });
    const pending = planned?.run.plan.changes.filter((ch) => ch.action !== 'no-op');
    const c = checkConsistency(await liveInventory(world), await readState(world, state), shape);
    const inconsistencies = [...c.orphans, ...c.stale, ...c.liveDuplicates];
    const duplicates = duplicateCreates(createRequests(world.nomadProxy.log, world.tfeProxy.log)).length;
    const planClean = pending !== undefined && pending.length === 0;
    const converged = runs > 0 && planClean && inconsistencies.length === 0;
    if (runs > 0 && !planClean) {
      failure = pending === undefined ? `re-plan failed: ${replan.found.map((d) => d.summary).join('; ')}` : `re-plan changes ${JSON.stringify(pending).slice(0, 800)}`;
    }
    return { seed, runs, converged, duplicates, inconsistencies, faulted, lostReplies, requests: simLog.length, wallMs, ...(failure && !converged ? { failure } : {}), ...(firstFailure ? { firstFailure } : {}) };
  } finally {
    await world.close();
  }
}

describe.concurrent('under 30 percent faults', () => {
  for (const state of BACKENDS) {
    it(`${state} state: converges within two runs for ${SEEDS} of ${SEEDS} seeds with no duplicate create`, async () => {
      await faultSeeds(state);
    }, 1_500_000);
  }
});

async function faultSeeds(state: 'local' | 'nomad'): Promise<void> {
  const seeds = Array.from({ length: SEEDS }, (_, i) => i + 1);
  const results = await mapLimit(seeds, CONCURRENCY, async (seed) => {
    const r = await runSeed(state, seed);
    console.log(
      `${state} seed ${seed}: ${r.converged ? `converged in ${r.runs} run${r.runs === 1 ? '' : 's'}` : 'NOT converged'}, ` +
        `${r.requests} requests, ${r.faulted} faulted, ${r.lostReplies} replies lost, ${r.duplicates} duplicates, ${Math.round(r.wallMs / 100) / 10} s` +
        (r.failure ? ` (${r.failure})` : '') +
        (r.firstFailure && r.converged ? `\n  first apply: ${r.firstFailure.slice(0, 400)}` : '') +
        (r.inconsistencies.length ? `\n  ${r.inconsistencies.join('\n  ')}` : ''),
    );
    return r;
  });
  const converged = results.filter((r) => r.converged);
  const sum = (f: (r: SeedResult) => number) => results.reduce((a, r) => a + f(r), 0);
  console.log(
    `faults 30 % (${state} state): ${converged.length}/${results.length} seeds converged within two runs ` +
      `(${converged.filter((r) => r.runs === 1).length} in one); duplicates ${sum((r) => r.duplicates)}; ` +
      `${sum((r) => r.requests)} requests, ${sum((r) => r.faulted)} faulted, ${sum((r) => r.lostReplies)} replies lost; ` +
      `median apply wall ${Math.round((results.map((r) => r.wallMs).sort((a, b) => a - b)[Math.floor(results.length / 2)] ?? 0) / 100) / 10} s`,
  );
  expect(results.filter((r) => !r.converged).map((r) => `seed ${r.seed}: ${r.failure ?? r.inconsistencies.join('; ')}`)).toEqual([]);
  expect(sum((r) => r.duplicates)).toBe(0);
}
