import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/async/manual-clock.js';
import { inProcess, listing, printedApply, storyPerTest, type Story } from '../library/story.js';
import { tfeApi } from './harness.js';

/*
 * Regression: a run somebody queued that waits for a person (policy_override, pre_plan_awaiting_decision:
 * neither final nor moving by itself, docs/reference/hcp-terraform-run-states.md) was not counted as pending, so
 * converge initiated an upgrade behind it; the upgrade queued, failed after --run-timeout with a hint to raise
 * it, and stayed in HCP Terraform to apply later, unattended. And a status converge does not know was followed
 * as "running" until --run-timeout. Now: no upgrade starts behind such a run, the error names the workspace,
 * the status and the run's URL at once, the canary's block stops the rollout with that reason, and an unknown
 * status is named after a bounded wait (20 poll intervals) while --run-timeout is a minute.
 * In-process: the library against the HCP Terraform simulator, both on the story's manual clock.
 */

const story = storyPerTest();
/** `--poll-interval 20ms --run-timeout 60s`. */
const FAST = { options: { pollIntervalMs: 20, runTimeoutMs: 60_000, concurrency: 4 } };

/** What `apply --auto-approve` prints, and whether it is what the CLI exits 0 on. */
async function applied(ws: Story): Promise<{ ok: boolean; out: string }> {
  const r = await ws.tryApply(FAST);
  const counts = r.report.status === 'applied' ? r.report.result.counts : undefined;
  const ok = r.report.status === 'no-changes' || (counts !== undefined && counts.failed + counts.skipped + counts.awaiting === 0);
  return { ok, out: printedApply(r.report) + r.problems };
}

async function given(ws: Story): Promise<void> {
  // A second workspace of the same module: vpc-dev (first by name) is the rollout's canary.
  const file = join(ws.dir, 'tfe', 'vpc.yaml');
  const text = await readFile(file, 'utf8');
  const dev = text.slice(text.indexOf('kind: NoCodeWorkspace'));
  await writeFile(file, `${text}\n---\n${dev.replace('name: vpc-dev', 'name: vpc-prod')}`);
  const a = await applied(ws);
  expect(a.ok, a.out).toBe(true);
}

async function bump(ws: Story): Promise<void> {
  const file = join(ws.dir, 'tfe', 'vpc.yaml');
  await writeFile(file, (await readFile(file, 'utf8')).replace('versionPin: 1.4.0', 'versionPin: 1.5.0'));
}

/**
 * Before a request of the test's own (unpaced, unlike converge's): one second on the story's clock, past the
 * simulator's per-second rate window an apply just used (the clock stays still while requests are under way).
 */
const windowPast = (ws: Story) => (ws.clock as ManualClock).advance(1000);

async function status(ws: Story, runId: string): Promise<string> {
  await windowPast(ws);
  return ((await tfeApi(ws, 'GET', `/runs/${runId}`)).body as { data: { attributes: { status: string } } }).data.attributes.status;
}

/** A run queued by a person in the workspace (POST /runs), as converge did not start it. */
async function queueRun(ws: Story, name: string): Promise<string> {
  await windowPast(ws);
  const w = (await tfeApi(ws, 'GET', `/organizations/acme/workspaces/${name}`)).body as { data: { id: string } };
  const r = await fetch(`${ws.env.TFE_ADDRESS}/api/v2/runs`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${ws.env.TFE_TOKEN}`, 'Content-Type': 'application/vnd.api+json' },
    body: JSON.stringify({ data: { type: 'runs', attributes: { message: 'queued by a person' }, relationships: { workspace: { data: { type: 'workspaces', id: w.data.id } } } } }),
  });
  expect(r.status).toBe(201);
  return ((await r.json()) as { data: { id: string } }).data.id;
}

/** The simulator's clock moved on until the run is in status `want`. */
async function until(ws: Story, runId: string, want: string): Promise<void> {
  for (let i = 0; (await status(ws, runId)) !== want; i++) {
    if (i > 3000) throw new Error(`run ${runId} never reached ${want}`);
    if (!(ws.clock instanceof ManualClock)) throw new Error('the story runs on a manual clock');
    await ws.clock.advance(10);
  }
}

const initiations = (ws: Story) => ws.sandbox.log.entries({ method: 'POST' }).filter((e) => /\/upgrade$/.test(e.path)).length;

describe('an upgrade behind a run that waits for a person', () => {
  it.each([
    ['policy-override', 'policy_override'],
    ['pre-plan-awaiting-decision', 'pre_plan_awaiting_decision'],
  ] as const)('is not started (%s); the canary stops the rollout with that reason', async (outcome, held) => {
    const ws = await story({ copyExamples: true });
    await given(ws);
    ws.sandbox.tfe.control.setNextRunOutcome('vpc-dev', outcome);
    const runId = await queueRun(ws, 'vpc-dev');
    await until(ws, runId, held);
    await bump(ws);

    const before = initiations(ws);
    const { ok, out } = await applied(ws);
    expect(ok, out).toBe(false);
    expect(out).toContain(`workspace vpc-dev: run ${runId} waits for a decision in HCP Terraform (${held}): `);
    expect(out).toMatch(new RegExp(`\\(${held}\\): http\\S+/runs/${runId}; converge starts no upgrade behind it`));
    expect(out).not.toMatch(/raise --run-timeout/);
    expect(out).toMatch(/NoCodeWorkspace\/vpc-prod\s+skipped: not started: the upgrade of vpc-dev \(the canary\) is held by a run that waits for a decision/);
    expect(initiations(ws)).toBe(before);
    expect(await status(ws, runId)).toBe(held);

    // Once somebody has decided (here: refused), the next apply upgrades both.
    ws.sandbox.tfe.control.decideRun('vpc-dev', 'cancel');
    const after = await applied(ws);
    expect(after.ok, after.out).toBe(true);
    expect(initiations(ws)).toBe(before + 2);
  }, 120_000);

  it('names a status it does not know after a bounded wait, not at --run-timeout, and keeps the run to resume', async () => {
    const ws = await story({ copyExamples: true });
    await given(ws);
    await bump(ws);
    ws.sandbox.tfe.control.setNextRunOutcome('vpc-dev', 'unlisted-status');
    const { ok, out } = await applied(ws);
    expect(ok, out).toBe(false);
    expect(out).toMatch(/upgrade run (run-\S+) of workspace vpc-dev has been in status sandbox_unlisted_state, which converge does not know, for \d+s: http\S+\/runs\/run-/);
    expect(out).not.toMatch(/did not finish within/);
    const runId = /upgrade run (run-\S+) of workspace vpc-dev has been/.exec(out)?.[1] ?? '?';
    expect((await inProcess({ cwd: ws.dir, env: ws.env }, listing())).stdout).toContain(`run ${runId}`);
  }, 120_000);
});
