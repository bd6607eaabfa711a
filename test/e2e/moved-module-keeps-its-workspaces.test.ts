import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applying, listing, onClock, planning, storyPerTest } from '../library/story.js';
import { runCli } from './harness.js';

/*
 * A NoCodeModule is found live by its registry module, so its document's name is converge's own: renaming it
 * (and the workspace's `module:` reference with it) with a Moved document sends nothing to HCP Terraform and
 * leaves its workspace alone, also through a saved plan (`plan --out`, `apply --plan`). Each command runs its
 * own code in this process (its text and exit code) on the simulators' ManualClock, but the saved plan is
 * applied by the built CLI: a fresh process, with nothing the plan's process loaded.
 */

const workspace = storyPerTest();

describe('a Moved NoCodeModule', () => {
  it('moves in the state only, its workspace still resolves it, and a saved plan applies it', async () => {
    const ws = await workspace({ copyExamples: true });
    expect((await ws.run(applying())).code).toBe(0);

    const file = join(ws.dir, 'tfe', 'vpc.yaml');
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('name: vpc\n', 'name: vpc-network\n').replace('  module: vpc\n', '  module: vpc-network\n'));
    await ws.write('tfe/moved.yaml', 'kind: Moved\nname: module\nspec:\n  from: NoCodeModule/vpc\n  to: NoCodeModule/vpc-network\n');

    const plan = await ws.run(planning({ json: true, out: 'plan.json' }));
    expect(plan.code, plan.stderr).toBe(0);
    const parsed = JSON.parse(plan.stdout) as { changes: { kind: string; name: string; action: string; movedFrom?: string }[]; summary: Record<string, number> };
    expect(parsed.summary).toEqual({ create: 0, update: 1, delete: 0, upgrade: 0 });
    expect(parsed.changes.filter((c) => c.action !== 'no-op')).toMatchObject([{ kind: 'NoCodeModule', name: 'vpc-network', action: 'update', movedFrom: 'vpc' }]);

    ws.sandbox.log.clear();
    // The fresh process paces its requests from nothing, and nobody moves the simulator's clock while it runs: one
    // second on that clock first, past the rate window the in-process plan just used (the clock stays still while
    // requests are under way).
    await onClock(ws.clock, ws.clock.sleep(1000));
    const apply = await runCli(['apply', '--plan', 'plan.json'], { cwd: ws.dir, env: ws.env });
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    expect(ws.sandbox.log.writes('tfe')).toEqual([]);
    const state = (await ws.run(listing())).stdout;
    expect(state).toContain('NoCodeModule/vpc-network');
    expect(state).not.toMatch(/NoCodeModule\/vpc\b(?!-)/);
    const again = await ws.run(planning({ detailedExitcode: true }));
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });
});
