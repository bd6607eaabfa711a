import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkConsistency, createRequests, duplicateCreates, FAST, liveInventory, openWorld, readLocalState, type Shape, type World } from './world.js';

/*
 * The fast cousin of test/slow/faults.test.ts, for `npm test`: a small world applied while
 * 20 % of requests fail (429 / 500 / 503 / reset before the handler) and 15 % of POST replies are lost
 * after the service acted (recording proxy). Creates must be read back by natural key, never repeated
 * blindly: the apply converges and the request logs show each object created once.
 */
const SHAPE: Shape = { authMethods: 4, bindingRules: 3, modules: 2, workspacesPerModule: 4 };

describe('a small apply under faults and lost POST replies', () => {
  let world: World;
  beforeAll(async () => {
    world = await openWorld({ seed: 5 });
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
    const a = await world.cli(['apply', '--auto-approve', ...FAST]);
    const faulted = world.ws.sandbox.log.entries().filter((e) => e.fault !== undefined).length;
    const lost = [...world.nomadProxy.log, ...world.tfeProxy.log].filter((r) => r.resetAfter).length;
    console.log(`faults (small): ${world.ws.sandbox.log.size} requests, ${faulted} faulted, ${lost} replies lost, wall ${Date.now() - started} ms, exit ${a.code}`);
    expect(a.code, a.stdout).toBe(0);
    expect(lost).toBeGreaterThan(0);

    world.ws.sandbox.nomad.faults.reset();
    world.ws.sandbox.tfe.faults.reset();
    world.nomadProxy.setResetAfter(0);
    world.tfeProxy.setResetAfter(0);
    const p = await world.cli(['plan', '--detailed-exitcode']);
    expect(p.code, p.stdout).toBe(0);
    expect(duplicateCreates(createRequests(world.nomadProxy.log, world.tfeProxy.log))).toEqual([]);
    expect(checkConsistency(await liveInventory(world), await readLocalState(world), SHAPE)).toEqual({ orphans: [], stale: [], liveDuplicates: [] });
  }, 60_000);
});
