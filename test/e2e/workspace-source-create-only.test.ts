import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applying, drifting, openStory, planning, type Story } from '../library/story.js';

/*
 * Regression: `sourceName` / `sourceUrl` are set only when a workspace is created; a PATCH
 * drops them (docs/reference/hcp-terraform-api.md §5). converge planned the same update after every apply. A change to
 * them is a no-op with a located warning, never an update or a replacement, and drift does not report it.
 * Each command runs its own code in this process (its text and exit code) on the simulators' ManualClock.
 */

let ws: Story | undefined;
afterEach(async () => {
  await ws?.close();
  ws = undefined;
});

describe('create-only workspace fields', () => {
  it('a changed sourceName or sourceUrl plans no change, warns at the manifest line, and drift stays clean', async () => {
    ws = await openStory({ copyExamples: true });
    const file = join(ws.dir, 'tfe', 'vpc.yaml');
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('  description: Development VPC\n', '  description: Development VPC\n  sourceName: platform-repo\n  sourceUrl: https://git.example.com/platform\n'));
    expect((await ws.run(applying())).code).toBe(0);

    await writeFile(file, (await readFile(file, 'utf8')).replace('sourceName: platform-repo', 'sourceName: renamed-repo'));
    const plan = await ws.run(planning({ detailedExitcode: true }));
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(plan.stdout).toContain('No changes');
    expect(plan.stderr).toContain('`spec.sourceName` is set only when the workspace is created: the live workspace keeps "platform-repo"');
    expect(plan.stderr).toMatch(/vpc\.yaml line \d+, column \d+/);
    const json = await ws.run(planning({ json: true }));
    const parsed = JSON.parse(json.stdout) as { changes: { name: string }[]; diagnostics: { code: string }[] };
    expect(parsed.changes.filter((c) => c.name === 'vpc-dev')).toEqual([]);
    expect(parsed.diagnostics.map((d) => d.code)).toContain('tfe.workspace.create-only');

    ws.sandbox.log.clear();
    const apply = await ws.run(applying());
    expect(apply.code, apply.stderr).toBe(0);
    expect(ws.sandbox.log.writes('tfe')).toEqual([]);
    const drift = await ws.run(drifting());
    expect(drift.code, drift.stdout + drift.stderr).toBe(0);
  });
});
