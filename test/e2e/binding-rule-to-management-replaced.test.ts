import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openWorkspace, type Workspace } from './harness.js';

/*
 * Regression: a binding rule changed from `role` to `management` was planned as an update,
 * which the real server refuses (`bind name should be empty`: it merges the empty BindName with the
 * stored one before validating, docs/reference/nomad-api.md §10). It is planned as delete + create, saying why.
 */

let ws: Workspace | undefined;
afterEach(async () => {
  await ws?.close();
  ws = undefined;
});

describe('a binding rule that becomes management', () => {
  it('is replaced, with the reason in the plan; the re-plan is clean', async () => {
    ws = await openWorkspace({ copyExamples: true });
    expect((await ws.cli(['apply', '--auto-approve', '.'])).code).toBe(0);
    const file = join(ws.dir, 'nomad', 'binding-rules.yaml');
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('  bindType: role\n  bindName: developer\n', '  bindType: management\n'));

    const plan = await ws.cli(['plan', '--json', '.']);
    expect(plan.code, plan.stderr).toBe(0);
    const changes = (JSON.parse(plan.stdout) as { changes: { kind: string; name: string; action: string; reason?: string }[] }).changes.filter(
      (c) => c.name === 'engineers-are-developers',
    );
    expect(changes.map((c) => c.action)).toEqual(['delete', 'create']);
    expect(changes[0]?.reason).toContain('management');

    const apply = await ws.cli(['apply', '--auto-approve', '.']);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    expect(apply.stdout + apply.stderr).not.toContain('bind name should be empty');
    const replan = await ws.cli(['plan', '--detailed-exitcode', '.']);
    expect(replan.code, replan.stdout + replan.stderr).toBe(0);
  });
});
