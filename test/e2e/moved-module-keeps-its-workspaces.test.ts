import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { workspacePerTest } from './harness.js';

/*
 * A NoCodeModule is found live by its registry module, so its document's name is converge's own: renaming it
 * (and the workspace's `module:` reference with it) with a Moved document sends nothing to HCP Terraform and
 * leaves its workspace alone, also through a saved plan (`plan --out`, `apply --plan`).
 */

const workspace = workspacePerTest();

describe('a Moved NoCodeModule', () => {
  it('moves in the state only, its workspace still resolves it, and a saved plan applies it', async () => {
    const ws = await workspace({ copyExamples: true });
    expect((await ws.cli(['apply', '--auto-approve', '.'])).code).toBe(0);

    const file = join(ws.dir, 'tfe', 'vpc.yaml');
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('name: vpc\n', 'name: vpc-network\n').replace('  module: vpc\n', '  module: vpc-network\n'));
    await ws.write('tfe/moved.yaml', 'kind: Moved\nname: module\nspec:\n  from: NoCodeModule/vpc\n  to: NoCodeModule/vpc-network\n');

    const plan = await ws.cli(['plan', '--json', '--out', 'plan.json', '.']);
    expect(plan.code, plan.stderr).toBe(0);
    const parsed = JSON.parse(plan.stdout) as { changes: { kind: string; name: string; action: string; movedFrom?: string }[]; summary: Record<string, number> };
    expect(parsed.summary).toEqual({ create: 0, update: 1, delete: 0, upgrade: 0 });
    expect(parsed.changes.filter((c) => c.action !== 'no-op')).toMatchObject([{ kind: 'NoCodeModule', name: 'vpc-network', action: 'update', movedFrom: 'vpc' }]);

    ws.sandbox.log.clear();
    const apply = await ws.cli(['apply', '--plan', 'plan.json']);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    expect(ws.sandbox.log.writes('tfe')).toEqual([]);
    const state = (await ws.cli(['state', 'list', '.'])).stdout;
    expect(state).toContain('NoCodeModule/vpc-network');
    expect(state).not.toMatch(/NoCodeModule\/vpc\b(?!-)/);
    const again = await ws.cli(['plan', '--detailed-exitcode', '.']);
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });
});
