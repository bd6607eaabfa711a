import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applying, storyPerTest } from '../library/story.js';

/*
 * Regression: when two writers race to set the default auth method, Nomad's state store
 * answers the loser with an uncoded `default ACL auth method already exists: <name>`, a 500 (see
 * docs/reference/nomad-api.md §4). converge retried it as a passing server fault; no retry can change it. It is the
 * final answer: one request, and the error names the method that is the default. The apply command's own code
 * in-process (`Story.run`), its runs and any back-off on the story's ManualClock.
 */

const story = storyPerTest();

describe('the default-method race', () => {
  it('is recognised at once, not retried, and reported as the default being taken', async () => {
    const ws = await story({ copyExamples: true });
    expect((await ws.run(applying())).code).toBe(0);
    // Move the default from okta to github-actions; meanwhile someone else makes okta the default again.
    const file = join(ws.dir, 'nomad', 'auth-methods.yaml');
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('  default: true\n', '  default: false\n').replace('name: github-actions\nspec:\n', 'name: github-actions\nspec:\n  default: true\n'));
    ws.sandbox.nomad.raceDefaultWith('okta');
    ws.sandbox.log.clear();

    const apply = await ws.run(applying());
    expect(apply.code).toBe(1);
    expect(apply.stdout + apply.stderr).toContain('okta is already the default auth method');
    const writes = ws.sandbox.log.writes('nomad').filter((e) => e.path === '/v1/acl/auth-method/github-actions');
    expect(writes.map((e) => e.status)).toEqual([500]);
  });
});
