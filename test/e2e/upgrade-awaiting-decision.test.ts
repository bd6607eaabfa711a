import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openWorkspace, type Workspace } from './harness.js';

/*
 * Regression: an upgrade run held by a run task that needs a person
 * (`post_plan_awaiting_decision`, docs/reference/hcp-terraform-api.md §3) was polled until --run-timeout. It is neither
 * final nor confirmable: converge stops, names the workspace, the run and its URL, says a decision is
 * needed in HCP Terraform, exits 1, and the next apply resumes the same run.
 */

let ws: Workspace | undefined;
afterEach(async () => {
  await ws?.close();
  ws = undefined;
});

const FAST = ['--poll-interval', '20ms', '--run-timeout', '60s'];

describe('an upgrade run that waits for a decision', () => {
  it('stops at once with the run named, and the next apply resumes the same run after the decision', async () => {
    ws = await openWorkspace({ copyExamples: true });
    expect((await ws.cli(['apply', '--auto-approve', ...FAST, '.'])).code).toBe(0);
    const file = join(ws.dir, 'tfe', 'vpc.yaml');
    await writeFile(file, (await readFile(file, 'utf8')).replace('versionPin: 1.4.0', 'versionPin: 1.5.0'));
    ws.sandbox.tfe.control.setNextRunOutcome('vpc-dev', 'awaiting-decision');

    const readsBefore = ws.sandbox.log.entries({ method: 'GET' }).length;
    const held = await ws.cli(['apply', '--auto-approve', ...FAST, '.']);
    expect(held.code).toBe(1);
    // Stopped at once: a handful of reads, not a poll every 20 ms until the 60 s run timeout (about 3 000).
    expect(ws.sandbox.log.entries({ method: 'GET' }).length - readsBefore).toBeLessThan(60);
    const out = held.stdout + held.stderr;
    expect(out).toMatch(/upgrade run (run-\S+) of workspace vpc-dev waits for a decision in HCP Terraform \(post_plan_awaiting_decision\): http\S+\/runs\/run-\S+/);
    expect(out).toContain('run task result needs a decision');
    const runId = /upgrade run (run-\S+) of workspace vpc-dev/.exec(out)?.[1];
    const state = await ws.cli(['state', 'list', '.']);
    expect(state.stdout).toContain(`run ${runId ?? '?'}`);

    ws.sandbox.tfe.control.decideRun('vpc-dev', 'override');
    const initiates = () => ws!.sandbox.log.entries({ method: 'POST' }).filter((e) => /\/upgrade$/.test(e.path)).length;
    const before = initiates();
    const resumed = await ws.cli(['apply', '--auto-approve', ...FAST, '.']);
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    expect(initiates()).toBe(before);
    expect(resumed.stdout + resumed.stderr).toContain(runId ?? '?');
    expect((await ws.cli(['plan', '--detailed-exitcode', '.'])).code).toBe(0);
  }, 90_000);
});
