import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openWorkspace, type Workspace } from './harness.js';

/*
 * Regression: the no-code module PATCH was neither retried nor read back, so one 5xx on it
 * failed the module and skipped every upgrade of its workspaces. Now a failed or lost PATCH is read back
 * (the module holds what was sent → done) and otherwise sent again, like the creates.
 */

let ws: Workspace | undefined;
afterEach(async () => {
  await ws?.close();
  ws = undefined;
});

const ARGS = ['apply', '--auto-approve', '--poll-interval', '20ms', '--run-timeout', '60s', '.'];
const PATCH = '^/api/v2/no-code-modules/[^/]+$';

async function bumpPin(w: Workspace, to: string): Promise<void> {
  const file = join(w.dir, 'tfe', 'vpc.yaml');
  await writeFile(file, (await readFile(file, 'utf8')).replace(/versionPin: \S+/, `versionPin: ${to}`));
}

const patches = (w: Workspace) => w.sandbox.log.entries({ method: 'PATCH' }).filter((e) => new RegExp(PATCH).test(e.path));

describe('a 5xx on the no-code module PATCH', () => {
  it('is sent again when the module does not hold it, and its workspaces upgrade', async () => {
    ws = await openWorkspace({ copyExamples: true });
    expect((await ws.cli(ARGS)).code).toBe(0);
    await bumpPin(ws, '1.5.0');
    ws.sandbox.tfe.control.failRequest({ method: 'PATCH', path: PATCH, status: 503 });
    const a = await ws.cli(ARGS);
    const out = a.stdout + a.stderr;
    expect(a.code, out).toBe(0);
    expect(out).toMatch(/vpc-dev\s+upgraded/);
    expect(patches(ws).map((e) => e.status)).toEqual([503, 200]);
    expect((await ws.cli(['plan', '--detailed-exitcode', '.'])).code).toBe(0);
  }, 90_000);

  it('is read back, not sent again, when the reply of a PATCH that took effect was lost', async () => {
    ws = await openWorkspace({ copyExamples: true });
    expect((await ws.cli(ARGS)).code).toBe(0);
    await bumpPin(ws, '1.5.0');
    ws.sandbox.tfe.control.failRequest({ method: 'PATCH', path: PATCH, status: 500, acted: true });
    const a = await ws.cli(ARGS);
    const out = a.stdout + a.stderr;
    expect(a.code, out).toBe(0);
    expect(out).toMatch(/vpc-dev\s+upgraded/);
    expect(patches(ws).map((e) => e.status)).toEqual([500]);
    expect((await ws.cli(['plan', '--detailed-exitcode', '.'])).code).toBe(0);
  }, 90_000);
});
