import { afterEach, describe, expect, it } from 'vitest';
import { LOCAL_STATE_SETTINGS, noCodeFleet as manifests } from './manifests.js';
import { applying, openStory, planning, type Story } from '../library/story.js';

/*
 * Rollouts that follow their runs in sweeps and can be steered: a rollout follows its runs with sweeps of the
 * workspace list (not one read per poll per run), stops after upgrade.maxFailures, says how far it got, and does
 * not call a run that waits in the organization's queue stuck. Each `apply` runs the command's own code in this
 * process (its text and exit code) on the simulators' ManualClock, so run steps, polls and the run timeout take
 * no real time.
 */

let ws: Story | undefined;
afterEach(async () => {
  await ws?.close();
  ws = undefined;
});

const names = (n: number) => Array.from({ length: n }, (_, i) => `fn-${String(i).padStart(2, '0')}`);

async function converged(w: Story, text: string, flags: Parameters<typeof applying>[0]): Promise<string> {
  await w.write('tfe.yaml', text);
  const r = await w.run(applying(flags));
  expect(r.code, r.stdout + r.stderr).toBe(0);
  return r.stdout + r.stderr;
}

/** Run reads one run at a time: GET /runs/:id and the upgrade status GET. */
function runReadsAlone(w: Story): number {
  return w.sandbox.log.entries({ service: 'tfe', method: 'GET' }).filter((e) => /^\/api\/v2\/runs\/run-[^/]+$|\/upgrade\/run-[^/]+$/.test(e.path)).length;
}

describe('rollouts follow their runs in sweeps', () => {
  it('creates and then upgrades 30 workspaces reading their runs with a few workspace-list pages, not one read per run per poll', async () => {
    ws = await openStory({ sandbox: { stepDelayMs: 40 } });
    await ws.write('settings.yaml', LOCAL_STATE_SETTINGS);
    const all = names(30);
    ws.sandbox.log.clear();
    await converged(ws, manifests('1.0.0', all), { parallelism: '30', pollInterval: '100ms' });
    // First runs of 30 created workspaces: followed by sweeps.
    expect(runReadsAlone(ws)).toBeLessThan(all.length);
    ws.sandbox.log.clear();
    await converged(ws, manifests('1.1.0', all), { parallelism: '30', pollInterval: '100ms' });
    const tfe = ws.sandbox.log.entries({ service: 'tfe' });
    const sweeps = tfe.filter((e) => e.path === '/api/v2/organizations/acme/workspaces' && e.query.includes('include=current_run')).length;
    expect(tfe.filter((e) => e.method === 'POST' && /\/upgrade$/.test(e.path))).toHaveLength(30);
    expect(sweeps).toBeGreaterThan(0);
    // One read per run per poll would be 30 × several; the canary, and a run not yet its workspace's current run, are read alone.
    expect(runReadsAlone(ws)).toBeLessThan(all.length);
    expect(tfe.filter((e) => e.method === 'GET' && /\/workspaces\/ws-[^/]+\/runs$/.test(e.path)).length).toBeLessThan(5);
    const plan = await ws.run(planning({ detailedExitcode: true }));
    expect(plan.code, plan.stdout).toBe(0);
  }, 120_000);

  it('upgrade.maxFailures stops the rollout after that many failed upgrades of the module, and the status line counts them', async () => {
    ws = await openStory();
    await ws.write('settings.yaml', LOCAL_STATE_SETTINGS);
    const all = names(6);
    const steer = '  upgrade: { maxConcurrent: 1, maxFailures: 2 }\n';
    await converged(ws, manifests('1.0.0', all, steer), { pollInterval: '20ms' });
    ws.sandbox.tfe.control.setNextRunOutcome('fn-01', 'errored');
    ws.sandbox.tfe.control.setNextRunOutcome('fn-02', 'errored');
    await ws.write('tfe.yaml', manifests('1.1.0', all, steer));
    const r = await ws.run(applying({ parallelism: '6', pollInterval: '20ms' }));
    const out = r.stdout + r.stderr;
    expect(r.code, out).not.toBe(0);
    const initiated = ws.sandbox.log.entries({ service: 'tfe', method: 'POST' }).filter((e) => /\/upgrade$/.test(e.path));
    // fn-00 the canary, then fn-01 and fn-02 one at a time (maxConcurrent 1); both fail: nothing else starts.
    expect(initiated).toHaveLength(3);
    expect(out).toMatch(/2 upgrades of module lambda failed \(upgrade\.maxFailures: 2\)/);
    expect(out).toMatch(/upgrades: 6 done, 0 running, 0 waiting, 2 failed, 3 skipped \(of 6\)/);
  }, 120_000);

  it('a run waiting in the organization queue beyond its concurrency is not reported stuck', async () => {
    ws = await openStory();
    await ws.write('settings.yaml', LOCAL_STATE_SETTINGS);
    const all = names(16);
    await converged(ws, manifests('1.0.0', all), { parallelism: '16', pollInterval: '20ms' });
    // One run plans or applies at a time; 15 upgrades after the canary queue for it. Each run moves about
    // 8 steps (2.4 s); the last waits about 30 steps (9 s) in plan_queued and apply_queued, beyond --run-timeout.
    ws.sandbox.tfe.control.setStepDelay(300);
    ws.sandbox.tfe.control.setRunConcurrency(1);
    await ws.write('tfe.yaml', manifests('1.1.0', all));
    const r = await ws.run(applying({ parallelism: '16', pollInterval: '50ms', runTimeout: '6s' }));
    const out = r.stdout + r.stderr;
    expect(out).not.toMatch(/did not finish within/);
    expect(r.code, out).toBe(0);
  }, 180_000);
});
