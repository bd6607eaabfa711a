import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applying, listing, openStory, planning, type Story } from '../library/story.js';

/*
 * Regression: an upgrade run held by a run task that needs a person
 * (`post_plan_awaiting_decision`, docs/reference/hcp-terraform-api.md §3) was polled until --run-timeout. It is neither
 * final nor confirmable: converge stops, names the workspace, the run and its URL, says a decision is
 * needed in HCP Terraform, exits 1, and the next apply resumes the same run. Each command runs its own code
 * in this process (its text and exit code) on the simulators' ManualClock: polling until the run timeout would
 * still show as thousands of reads in the log, in no real time.
 */

let ws: Story | undefined;
afterEach(async () => {
  await ws?.close();
  ws = undefined;
});

const APPLY = applying({ pollInterval: '20ms', runTimeout: '60s' });

describe('an upgrade run that waits for a decision', () => {
  it('stops at once with the run named, and the next apply resumes the same run after the decision', async () => {
    ws = await openStory({ copyExamples: true });
    expect((await ws.run(APPLY)).code).toBe(0);
    const file = join(ws.dir, 'tfe', 'vpc.yaml');
    await writeFile(file, (await readFile(file, 'utf8')).replace('versionPin: 1.4.0', 'versionPin: 1.5.0'));
    ws.sandbox.tfe.control.setNextRunOutcome('vpc-dev', 'awaiting-decision');

    const readsBefore = ws.sandbox.log.entries({ method: 'GET' }).length;
    const held = await ws.run(APPLY);
    expect(held.code).toBe(1);
    // Stopped at once: a handful of reads, not a poll every 20 ms until the 60 s run timeout (about 3 000).
    expect(ws.sandbox.log.entries({ method: 'GET' }).length - readsBefore).toBeLessThan(60);
    const out = held.stdout + held.stderr;
    expect(out).toMatch(/upgrade run (run-\S+) of workspace vpc-dev waits for a decision in HCP Terraform \(post_plan_awaiting_decision\): http\S+\/runs\/run-\S+/);
    expect(out).toContain('run task result needs a decision');
    const runId = /upgrade run (run-\S+) of workspace vpc-dev/.exec(out)?.[1];
    const state = await ws.run(listing());
    expect(state.stdout).toContain(`run ${runId ?? '?'}`);

    ws.sandbox.tfe.control.decideRun('vpc-dev', 'override');
    const initiates = () => ws!.sandbox.log.entries({ method: 'POST' }).filter((e) => /\/upgrade$/.test(e.path)).length;
    const before = initiates();
    const resumed = await ws.run(APPLY);
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    expect(initiates()).toBe(before);
    expect(resumed.stdout + resumed.stderr).toContain(runId ?? '?');
    expect((await ws.run(planning({ detailedExitcode: true }))).code).toBe(0);
  }, 90_000);
});
