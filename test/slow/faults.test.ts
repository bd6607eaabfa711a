import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/async/manual-clock.js';
import { applying, inProcessWith, planning, type CommandStep } from '../library/story.js';
import { checkConsistency, createRequests, duplicateCreates, liveInventory, openWorld, readLocalState, type Shape, type World } from '../reliability/world.js';

/*
 * Faults: 20 auth methods + 5 no-code modules + 50 workspaces applied while 20 % of requests
 * are answered 429 / 500 / 503 / connection reset (the simulators' seeded switches) with 200 ms
 * latency spikes, plus lost replies (a reset AFTER the service acted on a POST, injected by the
 * recording proxy). The apply converges, a re-plan shows no changes, and the request log shows no
 * duplicate create. The apply command's own code runs in-process (`inProcessWith`) through the proxies, with
 * the simulators, their latency spikes and the client's back-off on one ManualClock (the built CLI in real time
 * before: 31.8 s of tests at load 26, most of it back-off).
 */
const SHAPE: Shape = { authMethods: 20, bindingRules: 5, modules: 5, workspacesPerModule: 10 };

describe('apply under faults (20 % 429/500/503/reset, 200 ms spikes, lost POST replies)', () => {
  let world: World;
  const clock = new ManualClock();
  const run = (step: CommandStep) => inProcessWith({ cwd: world.ws.dir, env: world.env, clock }, step);
  beforeAll(async () => {
    world = await openWorld({ seed: 20, sandbox: { clock } });
    await world.writeShape(SHAPE);
  });
  afterAll(async () => world?.close());

  it('converges, re-plans clean, and creates nothing twice', async () => {
    const faults = { rate429: 0.05, rate500: 0.05, rate503: 0.05, rateReset: 0.05, spikeRate: 0.05, spikeMs: 200, seed: 20 };
    world.ws.sandbox.nomad.faults.set(faults);
    world.ws.sandbox.tfe.faults.set(faults);
    world.nomadProxy.setResetAfter(0.1, (m) => m === 'POST');
    world.tfeProxy.setResetAfter(0.1, (m) => m === 'POST');
    const started = Date.now();
    const a = await run(applying({ parallelism: '8', pollInterval: '20ms', runTimeout: '60s' }));
    const wallMs = Date.now() - started;
    const simLog = world.ws.sandbox.log.entries();
    const faulted = simLog.filter((e) => e.fault !== undefined).length;
    const lostReplies = [...world.nomadProxy.log, ...world.tfeProxy.log].filter((r) => r.resetAfter).length;
    // Every faulted answer and lost reply is a request converge had to repeat or read back.
    const retries = faulted + lostReplies;
    console.log(
      `faults: ${simLog.length} requests (${faulted} faulted by the simulators, ${lostReplies} replies lost after processing), ` +
        `${retries} retries or read-backs, wall ${wallMs} ms, exit ${a.code}`,
    );
    if (a.code !== 0) console.log(a.stdout.split('\n').filter((l) => /FAILED|skipped|Apply complete/.test(l)).join('\n'));
    // A run the dice spared proves nothing: the faults must really have fired, of every kind asked for.
    const kinds = new Set(simLog.map((e) => e.fault).filter((f) => f !== undefined));
    expect([...kinds].sort()).toEqual(expect.arrayContaining(['reset', 'status-429', 'status-500', 'status-503']));
    expect(lostReplies).toBeGreaterThan(0);
    expect(a.code).toBe(0);

    world.ws.sandbox.nomad.faults.reset();
    world.ws.sandbox.tfe.faults.reset();
    world.nomadProxy.setResetAfter(0);
    world.tfeProxy.setResetAfter(0);
    const p = await run(planning({ detailedExitcode: true }));
    expect(p.stdout).toContain('No changes');
    expect(p.code).toBe(0);

    const dups = duplicateCreates(createRequests(world.nomadProxy.log, world.tfeProxy.log));
    const consistency = checkConsistency(await liveInventory(world), await readLocalState(world), SHAPE);
    console.log(`faults: duplicates ${dups.length}, orphans ${consistency.orphans.length}, stale ${consistency.stale.length}, live duplicates ${consistency.liveDuplicates.length}`);
    expect(dups).toEqual([]);
    expect(consistency).toEqual({ orphans: [], stale: [], liveDuplicates: [] });
  }, 120_000);
});
