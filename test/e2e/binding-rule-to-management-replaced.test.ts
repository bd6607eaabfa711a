import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { storyPerTest, worded } from '../library/story.js';

/*
 * Regression: a binding rule changed from `role` to `management` was planned as an update,
 * which the real server refuses (`bind name should be empty`: it merges the empty BindName with the
 * stored one before validating, docs/reference/nomad-api.md §10). It is planned as delete + create, saying why.
 * In-process: the library against the Nomad simulator.
 */

const story = storyPerTest();

describe('a binding rule that becomes management', () => {
  it('is replaced, with the reason in the plan; the re-plan is clean', async () => {
    const s = await story({ copyExamples: true });
    // The examples' login tests expect this rule's role, which a management rule no longer grants.
    await rm(join(s.dir, 'nomad', 'login-tests.yaml'));
    expect((await s.apply()).status).toBe('applied');
    const file = join(s.dir, 'nomad', 'binding-rules.yaml');
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('  bindType: role\n  bindName: developer\n', '  bindType: management\n'));

    const planned = await s.plan();
    const changes = planned!.run.plan.changes.filter((c) => c.name === 'engineers-are-developers').map(worded);
    expect(changes.map((c) => c.action)).toEqual(['delete', 'create']);
    expect(changes[0]?.reason).toContain('management');

    s.sandbox.log.clear();
    const applied = await s.apply();
    expect(applied.status).toBe('applied');
    const writes = s.writes('nomad');
    expect(writes.filter((w) => w.includes('/v1/acl/binding-rule')).map((w) => w.split(' ')[0])).toEqual(['DELETE', 'POST']);
    // The server refused nothing (the old update was answered `bind name should be empty`).
    expect(s.sandbox.log.writes('nomad').filter((e) => e.status >= 400)).toEqual([]);
    const replan = await s.plan();
    expect(replan!.run.plan.changes.every((c) => c.action === 'no-op')).toBe(true);
  });
});
