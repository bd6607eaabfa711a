import { describe, expect, it } from 'vitest';
import { spawnCli } from '../e2e/harness.js';
import { libraryHost, plan } from '../../src/operations/index.js';
import { seededRandom } from '../../src/sandbox/common/faults.js';
import {
  checkConsistency,
  createRequests,
  duplicateCreates,
  EXTRA_VERSIONS,
  FAST,
  liveInventory,
  openWorld,
  readState,
  REGISTRY,
  unlockIfHeld,
  type Shape,
  type World,
} from '../reliability/world.js';

/*
 * Crash safety: 50 runs of the built CLI's `converge apply` against the sandbox, each killed
 * with SIGKILL at a seeded moment — a random time, or just after a given write went out (an upgrade
 * initiation, a workspace create, an auth-method write, a binding-rule or no-code module create) —
 * then rerun. Every rerun converges (exit 0, then a plan with no change); the request logs show
 * no duplicate create and no second upgrade for a run in flight; nothing live is orphaned; state
 * matches live. Between runs the manifests change (pins bumped, auth methods, rules, workspaces and
 * modules added and removed) so there is work to interrupt. Reproducible: CRASH_SEED picks the dice.
 * It runs once per state backend (CRASH_STATE=local,nomad by default): on Nomad Variables
 * the killed run's lock is removed as `converge state unlock` does before the rerun, as a person would
 * (else it clears by itself 75 s later).
 *
 * Where the time goes (docs/reliability.md): almost all of it is starting CLI processes. So the plan
 * that picks the dice (which kill points the next apply offers), the re-plan after the rerun and the
 * unlock run in this process through the library (the same code the CLI runs for them), and the two
 * backends' runs go at once (each its own sandbox and directory). What is killed and what is rerun is
 * always the built CLI in its own process. Each backend's run prints where its time went, per phase.
 */

const RUNS = Number(process.env.CRASH_RUNS ?? 50);
const SEED = Number(process.env.CRASH_SEED ?? 7);
const BACKENDS = (process.env.CRASH_STATE ?? 'local,nomad').split(',') as ('local' | 'nomad')[];

const VERSIONS: Record<string, string[]> = { vpc: ['1.3.0', '1.4.0', '1.5.0'], lambda: ['1.0.0', '1.1.0'] };
const versionsOf = (m: string) => VERSIONS[m] ?? EXTRA_VERSIONS;

type Trigger = 'time' | 'upgrade' | 'workspace-create' | 'auth-method-write' | 'binding-rule-create' | 'module-create';
const TRIGGERS: Trigger[] = ['time', 'upgrade', 'workspace-create', 'auth-method-write', 'binding-rule-create', 'module-create', 'upgrade', 'workspace-create'];

function matches(t: Trigger, method: string, path: string): boolean {
  if (method !== 'POST') return false;
  switch (t) {
    case 'upgrade':
      return /\/workspaces\/[^/]+\/upgrade$/.test(path);
    case 'workspace-create':
      return /^\/api\/v2\/no-code-modules\/[^/]+\/workspaces$/.test(path);
    case 'auth-method-write':
      return path.startsWith('/v1/acl/auth-method');
    case 'binding-rule-create':
      return path === '/v1/acl/binding-rule';
    case 'module-create':
      return /\/organizations\/[^/]+\/no-code-modules$/.test(path);
    case 'time':
      return false;
  }
}

function offers(t: Trigger, kind: string, action: string): boolean {
  switch (t) {
    case 'upgrade':
      return action === 'upgrade';
    case 'workspace-create':
      return kind === 'NoCodeWorkspace' && action === 'create';
    case 'auth-method-write':
      return kind === 'NomadAuthMethod' && (action === 'create' || action === 'update');
    case 'binding-rule-create':
      return kind === 'NomadBindingRule' && action === 'create';
    case 'module-create':
      return kind === 'NoCodeModule' && action === 'create';
    case 'time':
      return true;
  }
}

function mutate(shape: Shape, rnd: () => number): Shape {
  const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  const next: Shape = { ...shape, pins: { ...shape.pins } };
  const changes = 1 + Math.floor(rnd() * 3);
  for (let i = 0; i < changes; i++) {
    switch (pick(['pin', 'pin', 'methods', 'rules', 'workspaces', 'modules'] as const)) {
      case 'pin': {
        const m = pick(REGISTRY.slice(0, next.modules));
        const others = versionsOf(m).filter((v) => v !== next.pins?.[m]);
        next.pins = { ...next.pins, [m]: pick(others) };
        break;
      }
      case 'methods':
        next.authMethods = Math.max(1, Math.min(8, next.authMethods + pick([-2, -1, 1, 2, 3])));
        break;
      case 'rules':
        next.bindingRules = Math.floor(rnd() * (next.authMethods + 1));
        break;
      case 'workspaces':
        next.workspacesPerModule = 1 + Math.floor(rnd() * 4);
        break;
      case 'modules':
        next.modules = 2 + Math.floor(rnd() * 4);
        break;
    }
  }
  next.bindingRules = Math.min(next.bindingRules, next.authMethods);
  return next;
}

interface Tally {
  runs: number;
  killPointsHit: Record<string, number>;
  /** The apply finished before its kill point came. */
  finishedBeforeKill: number;
  rerunsConverged: number;
  duplicates: string[];
  orphans: string[];
  stale: string[];
}

/** The kinds and actions the next apply would carry out: the library's plan, in this process (no CLI start-up). */
async function plannedActions(world: World, run: number): Promise<{ kind: string; action: string }[]> {
  const host = libraryHost({ cwd: world.ws.dir, env: world.env });
  const planned = await plan(host, { paths: ['.'] });
  if (!planned) throw new Error(`run ${run}: plan failed: ${host.found.map((d) => d.summary).join('; ')}`);
  return planned.run.plan.changes;
}

describe.concurrent(`crash safety: ${RUNS} applies killed with SIGKILL, each rerun (seed ${SEED})`, () => {
  for (const state of BACKENDS) {
    it(`${state} state: every rerun converges with no duplicate create, no orphan, and state matching live`, async () => {
      const world = await openWorld({ seed: SEED, sandbox: { stepDelayMs: 25 } });
      try {
        await crashRuns(world, state);
      } finally {
        await world.close();
      }
    }, 1_500_000);
  }
});

async function crashRuns(world: World, state: 'local' | 'nomad'): Promise<void> {
  const rnd = seededRandom(SEED);
  const tally: Tally = { runs: 0, killPointsHit: {}, finishedBeforeKill: 0, rerunsConverged: 0, duplicates: [], orphans: [], stale: [] };
  let shape: Shape = { authMethods: 3, bindingRules: 2, modules: 2, workspacesPerModule: 2, pins: { vpc: '1.4.0', lambda: '1.0.0' }, state };
  await world.writeShape(shape);
  const first = await world.cli(['apply', '--auto-approve', ...FAST]);
  expect(first.code, first.stdout + first.stderr).toBe(0);
  const started = Date.now();
  const phases: Record<string, number> = {};

  for (let run = 0; run < RUNS; run++) {
    shape = mutate(shape, rnd);
    await world.writeShape(shape);
    // Kill points the plan offers (a trigger for work the apply will not do would never fire).
    let tp = Date.now();
    const lap = (k: string) => {
      const n = Date.now();
      phases[k] = (phases[k] ?? 0) + n - tp;
      tp = n;
    };
    const actions = await plannedActions(world, run);
    lap('plan (in process)');
    const offered = TRIGGERS.filter((t) => t === 'time' || actions.some((c) => offers(t, c.kind, c.action)));
    const trigger = offered[Math.floor(rnd() * offered.length)] as Trigger;
    const delayMs = trigger === 'time' ? 300 + Math.floor(rnd() * 2500) : Math.floor(rnd() * 150);
    const nomadFrom = world.nomadProxy.log.length;
    const tfeFrom = world.tfeProxy.log.length;

    const child = spawnCli(['apply', '--auto-approve', ...FAST], { cwd: world.ws.dir, env: world.env });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (out += d));
    let exited = false;
    const closed = new Promise<void>((resolve) => child.on('close', () => ((exited = true), resolve())));
    const t0 = Date.now();
    let firedAt: number | undefined = trigger === 'time' ? t0 : undefined;
    while (!exited) {
      if (firedAt === undefined) {
        const fresh = [...world.nomadProxy.log.slice(nomadFrom), ...world.tfeProxy.log.slice(tfeFrom)];
        if (fresh.some((e) => matches(trigger, e.method, e.path))) firedAt = Date.now();
      }
      if (firedAt !== undefined && Date.now() - firedAt >= delayMs) break;
      if (Date.now() - t0 > 60_000) break;
      await new Promise((r) => setTimeout(r, 2));
    }
    if (exited) tally.finishedBeforeKill += 1;
    else tally.killPointsHit[trigger] = (tally.killPointsHit[trigger] ?? 0) + 1;
    lap('apply until killed');
    child.kill('SIGKILL');
    await closed;
    if (state === 'nomad') await unlockIfHeld(world);
    lap('state unlock');

    const rerun = await world.cli(['apply', '--auto-approve', ...FAST]);
    lap('rerun');
    // What `plan --detailed-exitcode` exits 0 on: no change but no-ops (the same plan, in this process).
    const replanned = await plannedActions(world, run);
    const pending = replanned.filter((c) => c.action !== 'no-op');
    lap('re-plan (in process)');
    tally.runs += 1;
    const converged = rerun.code === 0 && pending.length === 0;
    if (converged) tally.rerunsConverged += 1;
    else console.log(`run ${run} (${trigger} +${delayMs} ms): rerun exit ${rerun.code}, re-plan changes ${JSON.stringify(pending).slice(0, 1500)}\n${rerun.stdout}${rerun.stderr.slice(-1500)}`);

    const window = createRequests(world.nomadProxy.log.slice(nomadFrom), world.tfeProxy.log.slice(tfeFrom));
    for (const d of duplicateCreates(window)) tally.duplicates.push(`run ${run} (${trigger}): ${d.kind} ${d.key} ×${d.count}`);
    const c = checkConsistency(await liveInventory(world), await readState(world, state), shape);
    lap('checks');
    if ((run + 1) % 10 === 0) console.log(`crash safety (${state} state): ${run + 1} runs, ${tally.rerunsConverged} reruns converged, ${Math.round((Date.now() - started) / 1000)} s`);
    tally.orphans.push(...[...c.orphans, ...c.liveDuplicates].map((o) => `run ${run} (${trigger}): ${o}`));
    tally.stale.push(...c.stale.map((o) => `run ${run} (${trigger}): ${o}`));
  }

  const hits = Object.values(tally.killPointsHit).reduce((a, b) => a + b, 0);
  console.log(
    `crash safety (seed ${SEED}, ${state} state): ${tally.runs} runs in ${Math.round((Date.now() - started) / 1000)} s; kill points hit ${hits} ` +
      `(${Object.entries(tally.killPointsHit)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ')}; ${tally.finishedBeforeKill} applies finished first); reruns converged ${tally.rerunsConverged}/${tally.runs}; ` +
      `duplicates ${tally.duplicates.length}; orphans ${tally.orphans.length}; state ≠ live ${tally.stale.length}`,
  );
  console.log(`crash safety (${state} state): time per phase, all runs: ${Object.entries(phases).map(([k, ms]) => `${k} ${Math.round(ms / 1000)} s`).join(', ')}`);
  for (const line of [...tally.duplicates, ...tally.orphans, ...tally.stale]) console.log(`  ${line}`);
  expect(tally.rerunsConverged).toBe(tally.runs);
  expect(tally.duplicates).toEqual([]);
  expect(tally.orphans).toEqual([]);
  expect(tally.stale).toEqual([]);
  // The dice must actually interrupt work, or this proves nothing.
  expect(hits).toBeGreaterThanOrEqual(Math.ceil(RUNS / 2));
}
