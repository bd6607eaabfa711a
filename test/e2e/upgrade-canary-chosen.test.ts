import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openWorkspace, type Workspace } from './harness.js';

/*
 * The canary of a rollout was always the first workspace by name. `upgrade.canary: true`
 * picks it: that workspace's upgrade is initiated first, alone.
 */

let ws: Workspace | undefined;
afterEach(async () => {
  await ws?.close();
  ws = undefined;
});

const FAST = ['--poll-interval', '20ms', '--run-timeout', '60s'];

const workspace = (name: string, canary: boolean) => `---
kind: NoCodeWorkspace
name: ${name}
spec:
  module: vpc
  project: Platform
  variables:
    - { key: region, value: eu-west-1, category: terraform }
  upgrade: { confirm: auto${canary ? ', canary: true' : ''} }
`;

describe('upgrade.canary', () => {
  it('the marked workspace is upgraded first, before those earlier by name', async () => {
    ws = await openWorkspace({ copyExamples: true });
    const file = join(ws.dir, 'tfe', 'vpc.yaml');
    await writeFile(join(ws.dir, 'tfe', 'more.yaml'), workspace('vpc-aaa', false) + workspace('vpc-zzz', true));
    expect((await ws.cli(['apply', '--auto-approve', ...FAST, '.'])).code).toBe(0);
    await writeFile(file, (await readFile(file, 'utf8')).replace('versionPin: 1.4.0', 'versionPin: 1.5.0'));
    ws.sandbox.log.clear();
    const apply = await ws.cli(['apply', '--auto-approve', '--parallelism', '1', ...FAST, '.']);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    const ids = new Map<string, string>();
    for (const name of ['vpc-aaa', 'vpc-dev', 'vpc-zzz']) {
      // Another token than the apply's: its 30 a second are spent by the apply that just ended, and the rate limit is per token.
      const r = await fetch(`${ws.sandbox.tfe.url}/api/v2/organizations/acme/workspaces/${name}`, { headers: { Authorization: `Bearer ${ws.sandbox.tfe.tokens.team}` } });
      ids.set(((await r.json()) as { data: { id: string } }).data.id, name);
    }
    const order = ws.sandbox.log
      .entries({ method: 'POST' })
      .filter((e) => /\/workspaces\/[^/]+\/upgrade$/.test(e.path))
      .map((e) => ids.get(/\/workspaces\/([^/]+)\/upgrade$/.exec(e.path)?.[1] ?? ''));
    expect(order).toEqual(['vpc-zzz', 'vpc-aaa', 'vpc-dev']);
  }, 60_000);
});
