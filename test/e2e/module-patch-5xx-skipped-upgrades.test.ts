import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applying, openStory, planning, type Story } from '../library/story.js';

/*
 * Regression: the no-code module PATCH was neither retried nor read back, so one 5xx on it
 * failed the module and skipped every upgrade of its workspaces. Now a failed or lost PATCH is read back
 * (the module holds what was sent → done) and otherwise sent again, like the creates. Each apply and plan
 * runs the command's own code in this process (its text and exit code) on the simulators' ManualClock, so the
 * retry's back-off takes no real time.
 */

let ws: Story | undefined;
afterEach(async () => {
  await ws?.close();
  ws = undefined;
});

const APPLY = applying({ pollInterval: '20ms', runTimeout: '60s' });
const PATCH = '^/api/v2/no-code-modules/[^/]+$';

async function bumpPin(w: Story, to: string): Promise<void> {
  const file = join(w.dir, 'tfe', 'vpc.yaml');
  await writeFile(file, (await readFile(file, 'utf8')).replace(/versionPin: \S+/, `versionPin: ${to}`));
}

const patches = (w: Story) => w.sandbox.log.entries({ method: 'PATCH' }).filter((e) => new RegExp(PATCH).test(e.path));

describe('a 5xx on the no-code module PATCH', () => {
  it('is sent again when the module does not hold it, and its workspaces upgrade', async () => {
    ws = await openStory({ copyExamples: true });
    expect((await ws.run(APPLY)).code).toBe(0);
    await bumpPin(ws, '1.5.0');
    ws.sandbox.tfe.control.failRequest({ method: 'PATCH', path: PATCH, status: 503 });
    const a = await ws.run(APPLY);
    const out = a.stdout + a.stderr;
    expect(a.code, out).toBe(0);
    expect(out).toMatch(/vpc-dev\s+upgraded/);
    expect(patches(ws).map((e) => e.status)).toEqual([503, 200]);
    expect((await ws.run(planning({ detailedExitcode: true }))).code).toBe(0);
  }, 90_000);

  it('is read back, not sent again, when the reply of a PATCH that took effect was lost', async () => {
    ws = await openStory({ copyExamples: true });
    expect((await ws.run(APPLY)).code).toBe(0);
    await bumpPin(ws, '1.5.0');
    ws.sandbox.tfe.control.failRequest({ method: 'PATCH', path: PATCH, status: 500, acted: true });
    const a = await ws.run(APPLY);
    const out = a.stdout + a.stderr;
    expect(a.code, out).toBe(0);
    expect(out).toMatch(/vpc-dev\s+upgraded/);
    expect(patches(ws).map((e) => e.status)).toEqual([500]);
    expect((await ws.run(planning({ detailedExitcode: true }))).code).toBe(0);
  }, 90_000);
});
