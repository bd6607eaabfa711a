import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ManualClock } from '../../src/async/manual-clock.js';
import { applying, drifting, listing, planning, storyPerTest, type Story } from '../library/story.js';
import { tfeApi } from './harness.js';

/*
 * Regression: with `upgrade.confirm: manual`, apply stopped at "awaiting confirmation" and exited 0 under
 * "Apply complete"; once the person confirmed the run as told, the next plan called the new module version
 * "changed outside converge" and `drift` exited 2. A run converge started and recorded is its own, whoever
 * confirmed it: the plan records its result (a refresh, nothing sent), drift is clean, and the apply that
 * stopped for a person says so in its last line and with its own exit code (3). Each command runs its own
 * code in this process (its text and exit code) against the simulators on their ManualClock.
 */

const workspace = storyPerTest();
const APPLY = applying({ pollInterval: '20ms', runTimeout: '60s' });

async function runStatus(ws: Story, runId: string): Promise<string> {
  const r = await tfeApi(ws, 'GET', `/runs/${runId}`);
  return (r.body as { data: { attributes: { status: string } } }).data.attributes.status;
}

describe('a manual upgrade confirmed by a person', () => {
  it('exits 3 with a clear line, then plans no drift once the run is confirmed and applied', async () => {
    const ws = await workspace({ copyExamples: true });
    expect((await ws.run(APPLY)).code).toBe(0);
    const file = join(ws.dir, 'tfe', 'vpc.yaml');
    await writeFile(file, (await readFile(file, 'utf8')).replace('versionPin: 1.4.0', 'versionPin: 1.5.0').replace('confirm: auto', 'confirm: manual'));

    const stopped = await ws.run(APPLY);
    expect(stopped.code, stopped.stdout + stopped.stderr).toBe(3);
    expect(stopped.stdout).not.toContain('Apply complete');
    expect(stopped.stdout).toMatch(/^Apply incomplete: 1 succeeded, 0 failed, 0 skipped, 1 awaiting confirmation\. Confirm each run/m);
    const runId = /\/runs\/(run-[A-Za-z0-9]+)/.exec(stopped.stdout)?.[1] ?? '';
    expect(runId).not.toBe('');

    // The person confirms the run in HCP Terraform, as the message says: a second later on the story's clock, past
    // the simulator's per-second rate window that the apply's requests used (the clock stays still while they are under way).
    await (ws.clock as ManualClock).advance(1000);
    const confirmed = await fetch(`${ws.env.TFE_ADDRESS}/api/v2/runs/${runId}/actions/apply`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ws.env.TFE_TOKEN}`, 'Content-Type': 'application/vnd.api+json' },
    });
    expect(confirmed.status).toBe(202);
    for (let i = 0; (await runStatus(ws, runId)) !== 'applied'; i++) {
      if (i > 2000) throw new Error('the confirmed run never applied');
      await (ws.clock as ManualClock).advance(50); // the simulator's run steps wait on the story's clock
    }

    const plan = await ws.run(planning({ detailedExitcode: true }));
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(plan.stdout).not.toContain('changed outside converge');
    expect(plan.stdout).toContain(`upgrade run ${runId} started by an earlier apply has applied since`);
    const drift = await ws.run(drifting());
    expect(drift.code, drift.stdout).toBe(0);
    expect(drift.stdout).not.toContain('changed outside converge');

    // The next apply records the run's result without a request; afterwards the state holds no run in flight.
    const before = ws.sandbox.log.entries({ service: 'tfe' }).filter((e) => e.method !== 'GET').length;
    const recorded = await ws.run(APPLY);
    expect(recorded.code, recorded.stdout + recorded.stderr).toBe(0);
    expect(ws.sandbox.log.entries({ service: 'tfe' }).filter((e) => e.method !== 'GET').length).toBe(before);
    expect((await ws.run(listing())).stdout).not.toContain(runId);
    expect((await ws.run(planning({ detailedExitcode: true }))).stdout).not.toContain(runId);
  }, 90_000);
});
