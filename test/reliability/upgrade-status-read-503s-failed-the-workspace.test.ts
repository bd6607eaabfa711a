import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openWorkspace, type Workspace } from '../e2e/harness.js';

/*
 * Regression: `upgrade-lost-reply-failed-the-workspace` failed now and then with
 * "vpc-03 FAILED to upgrade … injected 503". The path (found with --verbose in a loop of that suite): one
 * status read of the upgrade run (`GET …/upgrade/:run`) met seven 5xx or resets in a row, the HTTP layer's
 * retries ran out, and the follower failed the workspace although the run went on in HCP Terraform. A read
 * (or confirm) of a run in flight that fails with a retryable error is now met by polling again until
 * --run-timeout. Reproduced exactly: the next seven status reads answer 503. Each says `Retry-After: 0`, which
 * the HTTP layer honours on a 503 (docs/reference/retry-after.md): the retries run out as before, without the
 * 700–900 ms × attempt back-off a 503 without it costs in real time.
 */

let ws: Workspace | undefined;
afterEach(async () => {
  await ws?.close();
  ws = undefined;
});

const ARGS = ['apply', '--auto-approve', '--poll-interval', '20ms', '--run-timeout', '60s', '.'];
const STATUS = '/workspaces/ws-[^/]+/upgrade/run-[^/]+$';

describe('an upgrade whose status read fails more times than the HTTP layer retries', () => {
  it('polls again and the upgrade converges', async () => {
    ws = await openWorkspace({ copyExamples: true });
    expect((await ws.cli(ARGS)).code).toBe(0);
    const file = join(ws.dir, 'tfe', 'vpc.yaml');
    await writeFile(file, (await readFile(file, 'utf8')).replace('versionPin: 1.4.0', 'versionPin: 1.5.0'));
    for (let i = 0; i < 7; i++) ws.sandbox.tfe.control.failRequest({ method: 'GET', path: STATUS, status: 503, retryAfterSeconds: 0 });

    const a = await ws.cli(ARGS);
    const out = a.stdout + a.stderr;
    expect(a.code, out).toBe(0);
    expect(out).toMatch(/reading upgrade run run-\S+ failed .*503.*; polling again/);
    const reads = ws.sandbox.log.entries({ method: 'GET' }).filter((e) => new RegExp(STATUS).test(e.path));
    expect(reads.slice(0, 7).map((e) => e.status)).toEqual([503, 503, 503, 503, 503, 503, 503]);
    expect((await ws.cli(['plan', '--detailed-exitcode', '.'])).code).toBe(0);
  }, 120_000);
});
