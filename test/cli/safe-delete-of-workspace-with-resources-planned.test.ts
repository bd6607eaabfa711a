import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appliedVpcWorkspace } from './applied-vpc-workspace.js';
import { runCli } from './run-cli.js';

/*
 * A `deletion: safe` delete of a workspace that still manages resources was planned as a plain
 * "1 to delete" and failed at apply with HCP Terraform's 409. The workspace's `resource-count` is read
 * with it, so the plan now says the safe-delete will be refused and how to proceed.
 */

describe('a safe delete of a workspace that still manages resources', () => {
  const world = appliedVpcWorkspace();
  const env = world.env;

  it('the plan says the safe-delete will be refused, with the resource count and the ways out', async () => {
    const project = { dir: world.dir() };
    world.sandbox().tfe.control.setManagedResources('vpc-dev', 3);

    // The workspace leaves the manifests (its module stays).
    const file = join(project.dir, 'tfe', 'vpc.yaml');
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.slice(0, text.indexOf('---')));

    const plan = await runCli(['plan', 'tfe'], project.dir, env());
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(plan.stdout).toContain('- NoCodeWorkspace/vpc-dev');
    expect(plan.stdout).toContain('will be refused: the workspace still manages 3 resources and deletion is safe');
    expect(plan.stdout).toContain('deletion: destroy');

    const json = await runCli(['plan', '--json', 'tfe'], project.dir, env());
    const change = (JSON.parse(json.stdout) as { changes: { name: string; noteCodes?: { code: string; resources?: number }[] }[] }).changes.find((c) => c.name === 'vpc-dev');
    expect(change?.noteCodes).toContainEqual({ code: 'safe-delete-refused', resources: 3 });
  });
});
