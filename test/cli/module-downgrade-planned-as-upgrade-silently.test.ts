import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appliedVpcWorkspace } from './applied-vpc-workspace.js';
import { runCli } from './run-cli.js';

/*
 * A module version pin moved back (1.4.0 → 1.3.0) was planned as an upgrade like any other, with no
 * word that the rollout takes every workspace back to an older version. The plan now notes the downgrade.
 */

describe('a module version pinned back', () => {
  const world = appliedVpcWorkspace();

  it('is planned as an upgrade with a downgrade note in text and JSON', async () => {
    const file = join(world.dir(), 'tfe', 'vpc.yaml');
    await writeFile(file, (await readFile(file, 'utf8')).replace('versionPin: 1.4.0', 'versionPin: 1.3.0'));

    const plan = await runCli(['plan', 'tfe'], world.dir(), world.env());
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(plan.stdout).toContain('a downgrade: 1.3.0 is older than 1.4.0, which the workspace runs');

    const json = await runCli(['plan', '--json', 'tfe'], world.dir(), world.env());
    const changes = (JSON.parse(json.stdout) as { changes: { name: string; action: string; noteCodes?: { code: string }[] }[] }).changes;
    const ws = changes.find((c) => c.name === 'vpc-dev');
    expect(ws?.action).toBe('upgrade');
    expect(ws?.noteCodes).toContainEqual({ code: 'module-downgrade', from: '1.4.0', to: '1.3.0' });
  });
});
