import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LOCAL_STATE_SETTINGS, noCodeFleet, TFE_SETTINGS, vpcModule } from './manifests.js';
import { applying, openStory, planning, type Story } from '../library/story.js';

/*
 * HCP Terraform rations its run lists at 30 requests a minute (docs/reference/hcp-terraform-runs.md), and the sandbox
 * does too, by default. converge listed a workspace's runs to find each created workspace's first run and, at plan
 * time, for every workspace it adopted: a rollout of more than ~30 creates stalled on 429s, and a plan of 2 000
 * adopted workspaces took over an hour. Run state now comes from the workspace (`latest-run`, `current-run` with
 * `include=current_run`) and `GET /runs/:id`: these paths send no run list at all (each command's own code in
 * this process, against the simulator with the ration on, on their shared ManualClock).
 */

let ws: Story | undefined;
afterEach(async () => {
  await ws?.close();
  ws = undefined;
});

/** More than the 20 workspaces converge shows one by one: the plan reads them through the workspace list. */
const NAMES = Array.from({ length: 24 }, (_, i) => `rl-${String(i).padStart(2, '0')}`);

const runLists = (w: Story) => w.sandbox.log.entries({ service: 'tfe' }).filter((e) => e.method === 'GET' && /\/(workspaces|organizations)\/[^/]+\/runs$/.test(e.path));

describe('run state without run lists (rationed at 30 a minute)', () => {
  it('creating workspaces and following their first runs, then planning them adopted with an empty state, sends no run list', async () => {
    ws = await openStory({ sandbox: { stepDelayMs: 5 } });
    const w = ws;
    await w.write('settings.yaml', LOCAL_STATE_SETTINGS);
    await w.write('tfe.yaml', noCodeFleet('1.0.0', NAMES));
    const created = await w.run(applying({ parallelism: '24', pollInterval: '20ms' }));
    expect(created.code, created.stdout + created.stderr).toBe(0);
    expect(runLists(w)).toEqual([]);
    expect(w.sandbox.log.entries({ service: 'tfe' }).filter((e) => e.status === 429)).toEqual([]);

    // A user recovering from a lost state: every workspace is adopted by the plan.
    await rm(join(w.dir, '.converge', 'state.json'));
    w.sandbox.log.clear();
    const plan = await w.run(planning({ detailedExitcode: true }));
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(runLists(w)).toEqual([]);
    // The workspaces came with their current runs: no run was read on its own either.
    expect(w.sandbox.log.entries({ service: 'tfe' }).filter((e) => e.path.startsWith('/api/v2/runs/'))).toEqual([]);
  }, 120_000);

  it('upgrading workspaces and destroying them sends no run list either', async () => {
    ws = await openStory({ sandbox: { stepDelayMs: 5 } });
    const w = ws;
    const names = ['up-0', 'up-1', 'up-2', 'up-3', 'up-4'];
    const fleet = (pin: string) =>
      [vpcModule(pin), ...names.map((n) => `kind: NoCodeWorkspace\nname: ${n}\nspec:\n  module: vpc\n  deletion: destroy\n`)].join('---\n');
    await w.write('settings.yaml', TFE_SETTINGS);
    await w.write('tfe/vpc.yaml', fleet('1.4.0'));
    const apply = applying({ parallelism: '5', pollInterval: '20ms' });
    const created = await w.run(apply);
    expect(created.code, created.stdout + created.stderr).toBe(0);
    w.sandbox.log.clear();
    await w.write('tfe/vpc.yaml', fleet('1.5.0'));
    const upgraded = await w.run(apply);
    expect(upgraded.code, upgraded.stdout + upgraded.stderr).toBe(0);
    expect(runLists(w)).toEqual([]);
    // Each destroy queues its run and follows it; the read-back before the POST reads the workspace, not its runs.
    await w.write('tfe/vpc.yaml', vpcModule('1.5.0'));
    const destroyed = await w.run(apply);
    expect(destroyed.code, destroyed.stdout + destroyed.stderr).toBe(0);
    expect(w.sandbox.log.entries({ service: 'tfe' }).filter((e) => e.method === 'POST' && e.path === '/api/v2/runs')).toHaveLength(5);
    expect(runLists(w)).toEqual([]);
  }, 120_000);
});
