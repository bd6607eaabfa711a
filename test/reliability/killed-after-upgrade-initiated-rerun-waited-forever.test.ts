import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequests, openWorld, readLocalState, type Shape, type World } from './world.js';

/*
 * Regression (crash-safety suite): an apply SIGKILLed after HCP Terraform accepted an upgrade
 * initiation but before converge recorded the run left a rerun that initiated a SECOND upgrade; the
 * second run queued behind the first (which waited for a confirmation nobody sent) and the rerun sat
 * at "pending" until --run-timeout. Now the rerun follows the unrecorded run in flight instead.
 * The kill is reproduced exactly: the upgrade is initiated straight against the simulator, as the
 * killed process had done, with nothing in state.
 */
const BASE: Shape = { authMethods: 0, bindingRules: 0, modules: 1, workspacesPerModule: 1, pins: { vpc: '1.4.0' } };
const ARGS = ['apply', '--auto-approve', '--poll-interval', '20ms', '--run-timeout', '10s'];

describe('rerun after a kill between upgrade initiation and its record', () => {
  let world: World;
  beforeAll(async () => {
    world = await openWorld({ seed: 4 });
    await world.writeShape(BASE);
    expect((await world.cli(ARGS)).code).toBe(0);
  });
  afterAll(async () => world?.close());

  it('follows the run in flight, starts no second upgrade, and converges', async () => {
    await world.writeShape({ ...BASE, pins: { vpc: '1.5.0' } });
    // What the killed apply did before dying: the module moved to 1.5.0 and the upgrade was initiated.
    const from = world.tfeProxy.log.length;
    const records = await readLocalState(world);
    const mod = records.find((r) => r.kind === 'NoCodeModule');
    const ws = records.find((r) => r.kind === 'NoCodeWorkspace');
    const { tfe } = world.ws.sandbox;
    const h = { Authorization: `Bearer ${tfe.tokens.user}`, 'Content-Type': 'application/vnd.api+json' };
    const patch = await fetch(`${tfe.url}/api/v2/no-code-modules/${mod?.id}`, {
      method: 'PATCH',
      headers: h,
      body: JSON.stringify({ data: { type: 'no-code-modules', attributes: { 'version-pin': '1.5.0' } } }),
    });
    expect(patch.status).toBe(200);
    const up = await fetch(`${tfe.url}/api/v2/no-code-modules/${mod?.id}/workspaces/${ws?.id}/upgrade`, { method: 'POST', headers: h, body: '{}' });
    expect(up.status).toBe(200);

    const a = await world.cli(ARGS);
    expect(a.code, a.stdout + a.stderr).toBe(0);
    expect(a.stderr).toMatch(/in flight but not in state/);
    const upgrades = createRequests([], world.tfeProxy.log.slice(from)).filter((c) => c.kind === 'Upgrade');
    expect(upgrades).toEqual([]);
    expect((await world.cli(['plan', '--detailed-exitcode'])).code).toBe(0);
  }, 60_000);
});
