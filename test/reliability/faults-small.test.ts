import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/async/manual-clock.js';
import { applying, inProcessWith, planning, type CommandStep } from '../library/story.js';
import { checkConsistency, createRequests, duplicateCreates, liveInventory, openWorld, readLocalState, type Shape, type World } from './world.js';

/*
 * The fast cousin of test/slow/faults.test.ts, for `npm test`: a small world applied while
 * 20 % of requests fail (429 / 500 / 503 / reset before the handler) and 15 % of POST replies are lost
 * after the service acted (recording proxy). Creates must be read back by natural key, never repeated
 * blindly: the apply converges and the request logs show each object created once. The apply command's own code
 * runs in-process (`inProcessWith`) through the proxies, with the simulators, their latency spikes and the
 * client's back-off on one ManualClock.
 */
const SHAPE: Shape = { authMethods: 4, bindingRules: 3, modules: 2, workspacesPerModule: 4 };

describe('a small apply under faults and lost POST replies', () => {
  let world: World;
  const clock = new ManualClock();
  const run = (step: CommandStep) => inProcessWith({ cwd: world.ws.dir, env: world.env, clock }, step);
  beforeAll(async () => {
    world = await openWorld({ seed: 5, sandbox: { clock } });
    await world.writeShape(SHAPE);
  });
  afterAll(async () => world?.close());

  it('converges, re-plans clean, and creates each object once', async () => {
    const faults = { rate429: 0.05, rate500: 0.05, rate503: 0.05, rateReset: 0.05, spikeRate: 0.05, spikeMs: 200, seed: 5 };
    world.ws.sandbox.nomad.faults.set(faults);
    world.ws.sandbox.tfe.faults.set(faults);
    world.nomadProxy.setResetAfter(0.15, (m) => m === 'POST');
    world.tfeProxy.setResetAfter(0.15, (m, p) => m === 'POST' && /no-code-modules(\/[^/]+\/workspaces)?$/.test(p));
    const started = Date.now();
    const a = await run(applying({ pollInterval: '20ms', runTimeout: '60s' }));
    const faulted = world.ws.sandbox.log.entries().filter((e) => e.fault !== undefined).length;
    const lost = [...world.nomadProxy.log, ...world.tfeProxy.log].filter((r) => r.resetAfter).length;
    console.log(`faults (small): ${world.ws.sandbox.log.size} requests, ${faulted} faulted, ${lost} replies lost, wall ${Date.now() - started} ms, exit ${a.code}`);
    expect(a.code, a.stdout).toBe(0);
    expect(lost).toBeGreaterThan(0);

    world.ws.sandbox.nomad.faults.reset();
    world.ws.sandbox.tfe.faults.reset();
    world.nomadProxy.setResetAfter(0);
    world.tfeProxy.setResetAfter(0);
    const p = await run(planning({ detailedExitcode: true }));
    expect(p.code, p.stdout).toBe(0);
    expect(duplicateCreates(createRequests(world.nomadProxy.log, world.tfeProxy.log))).toEqual([]);
    expect(checkConsistency(await liveInventory(world), await readLocalState(world), SHAPE)).toEqual({ orphans: [], stale: [], liveDuplicates: [] });
  });
});
