import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/async/manual-clock.js';
import { applying, inProcessWith, planning, type CommandStep } from '../library/story.js';
import { createRequests, duplicateCreates, openWorld, type Shape, type World } from './world.js';

/*
 * Regression: an upgrade initiation (POST …/upgrade) or confirmation (POST …/upgrade/:run)
 * met by a 500/503 or a lost reply failed the canary workspace, and with it every other upgrade of
 * the module. Both are now read back (the workspace's newest run; the run's status) before being
 * sent again, so the upgrade converges and no workspace gets a second upgrade run. The commands' own code runs
 * in-process (`inProcessWith`) through the proxies, with the simulators' runs and the client's back-off on one
 * ManualClock.
 */
const FAST = { pollInterval: '20ms', runTimeout: '60s' };
const BASE: Shape = { authMethods: 1, bindingRules: 0, modules: 2, workspacesPerModule: 4 };

describe('upgrades under 5xx faults and lost replies', () => {
  let world: World;
  const clock = new ManualClock();
  const run = (step: CommandStep) => inProcessWith({ cwd: world.ws.dir, env: world.env, clock }, step);
  beforeAll(async () => {
    world = await openWorld({ seed: 9, sandbox: { clock } });
    await world.writeShape(BASE);
    expect((await run(applying(FAST))).code).toBe(0);
  });
  afterAll(async () => world?.close());

  it('every workspace upgrades once and the re-plan is clean', async () => {
    await world.writeShape({ ...BASE, pins: { vpc: '1.5.0', lambda: '1.1.0' } });
    const from = world.tfeProxy.log.length;
    world.ws.sandbox.tfe.faults.set({ rate500: 0.1, rate503: 0.1, rateReset: 0.05, seed: 9 });
    world.tfeProxy.setResetAfter(0.15, (m) => m === 'POST');
    const a = await run(applying(FAST));
    const window = world.tfeProxy.log.slice(from);
    console.log(
      `upgrades under faults: exit ${a.code}, ${window.filter((e) => e.status >= 500).length} 5xx, ${window.filter((e) => e.resetAfter).length} lost replies`,
    );
    expect(a.code, a.stdout).toBe(0);
    world.ws.sandbox.tfe.faults.reset();
    world.tfeProxy.setResetAfter(0);
    expect(duplicateCreates(createRequests([], window))).toEqual([]);
    const upgraded = new Set(createRequests([], window).filter((c) => c.kind === 'Upgrade' && c.processed).map((c) => c.key));
    expect(upgraded.size).toBe(8);
    expect((await run(planning({ detailedExitcode: true }))).code).toBe(0);
  });
});
