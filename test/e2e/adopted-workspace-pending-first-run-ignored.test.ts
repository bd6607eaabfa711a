import { afterEach, describe, expect, it } from 'vitest';
import type { ManualClock } from '../../src/async/manual-clock.js';
import { applying, onClock, openStory, planning, type Story } from '../library/story.js';
import { spawnCli, waitFor } from './harness.js';

/*
 * Regression: an apply killed between the workspace create request and its reply left a
 * workspace whose first run waited for a confirmation. The rerun adopted the workspace, `plan` said
 * "No changes", and the next upgrade followed that first run as if it were the upgrade: "upgraded
 * 1.4.0 → 1.5.0 … (now at 1.4.0)", exit 0. Now adoption follows (and per upgrade.confirm confirms) the
 * pending first run, and a run found in flight counts as the upgrade only if the workspace then runs the
 * target version. The apply killed with SIGKILL is a spawned CLI (a process to kill); every later step runs
 * the command's own code in this process (its text and exit code) on the simulators' ManualClock.
 */

let ws: Story | undefined;
afterEach(async () => {
  await ws?.close();
  ws = undefined;
});

const ARGS = ['apply', '--auto-approve', '--poll-interval', '20ms', '--run-timeout', '20s', '.'];
const FAST = { pollInterval: '20ms', runTimeout: '20s' };
const SETTINGS = 'kind: Settings\nname: settings\nspec:\n  tfe: { organization: acme }\n  state: { backend: local, path: .converge/state.json }\n';
const manifests = (pin: string) => `kind: NoCodeModule
name: vpc
spec:
  registryModule: acme/vpc/aws
  versionPin: ${pin}
  enabled: true
---
kind: NoCodeWorkspace
name: vpc-dev
spec:
  module: vpc
  description: Development VPC
  upgrade:
    confirm: auto
`;

/** The workspace's module version and its runs' statuses, straight from the simulator. */
async function live(w: Story): Promise<{ version: string | undefined; runs: string[] }> {
  // Unpaced reads of the test's own: one second on the story's clock first, past the simulator's per-second rate
  // window an apply just used (the clock stays still while requests are under way).
  await onClock(w.clock, w.clock.sleep(1000));
  const { tfe } = w.sandbox;
  const h = { Authorization: `Bearer ${tfe.tokens.user}` };
  const res = await fetch(`${tfe.url}/api/v2/organizations/acme/workspaces/vpc-dev`, { headers: h });
  if (res.status !== 200) return { version: undefined, runs: [] };
  const doc = (await res.json()) as { data: { id: string; attributes: Record<string, unknown> } };
  const runs = (await (await fetch(`${tfe.url}/api/v2/workspaces/${doc.data.id}/runs`, { headers: h })).json()) as { data: { attributes: { status: string } }[] };
  return { version: String(doc.data.attributes['source-module-id']).split('/').pop(), runs: runs.data.map((r) => r.attributes.status) };
}

/** An apply SIGKILLed after the workspace create reached HCP Terraform and before its reply came back. */
async function killedAfterCreate(w: Story): Promise<void> {
  await w.write('settings.yaml', SETTINGS);
  await w.write('tfe/vpc.yaml', manifests('1.4.0'));
  w.sandbox.tfe.control.failRequest({ method: 'POST', path: '^/api/v2/no-code-modules/[^/]+/workspaces$', acted: true, delayMs: 20_000 });
  const child = spawnCli(ARGS, { cwd: w.dir, env: w.env });
  let created = false;
  // The simulators' ManualClock moves with real time while the process runs (nothing in-process waits on it).
  const clock = w.clock as ManualClock;
  const poll = setInterval(() => {
    void clock.advance(50);
    void live(w).then((l) => (created = l.version !== undefined));
  }, 50);
  try {
    await waitFor(() => created, 20_000, 'the workspace create to reach the simulator');
  } finally {
    clearInterval(poll);
  }
  child.kill('SIGKILL');
  await new Promise((r) => child.once('close', r));
  w.sandbox.tfe.control.clearFailedRequests();
}

describe('an adopted workspace whose first run still waits', () => {
  it('plan shows the first run; apply follows and confirms it; the next upgrade really upgrades', async () => {
    ws = await openStory();
    await killedAfterCreate(ws);
    const plan = await ws.run(planning({ detailedExitcode: true }));
    expect(plan.code, plan.stdout + plan.stderr).toBe(2);
    expect(plan.stdout).toMatch(/first run run-\S+ is in flight \(cost_estimated\)/);

    const a = await ws.run(applying(FAST));
    expect(a.code, a.stdout + a.stderr).toBe(0);
    expect((await live(ws)).runs).toEqual(['applied']);
    expect((await ws.run(planning({ detailedExitcode: true }))).code).toBe(0);

    await ws.write('tfe/vpc.yaml', manifests('1.5.0'));
    const up = await ws.run(applying(FAST));
    expect(up.code, up.stdout + up.stderr).toBe(0);
    expect(up.stdout).not.toMatch(/now at/);
    expect(await live(ws)).toEqual({ version: '1.5.0', runs: ['applied', 'applied'] });
    expect((await ws.run(planning({ detailedExitcode: true }))).code).toBe(0);
  }, 120_000);

  it('an upgrade planned at adoption follows the first run, then upgrades', async () => {
    ws = await openStory();
    await killedAfterCreate(ws);
    await ws.write('tfe/vpc.yaml', manifests('1.5.0'));
    // Unowned and differing from its manifest (the version moved meanwhile): taking it over is asked for
    // explicitly (decisions.md §17); without --adopt the plan refuses it and sends nothing.
    const refused = await ws.run(applying(FAST));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('--adopt NoCodeWorkspace/vpc-dev');
    const a = await ws.run(applying({ ...FAST, adopt: ['NoCodeWorkspace/vpc-dev'] }));
    expect(a.code, a.stdout + a.stderr).toBe(0);
    expect(a.stdout).not.toMatch(/now at/);
    expect(await live(ws)).toEqual({ version: '1.5.0', runs: ['applied', 'applied'] });
    expect((await ws.run(planning({ detailedExitcode: true }))).code).toBe(0);
  }, 120_000);
});
