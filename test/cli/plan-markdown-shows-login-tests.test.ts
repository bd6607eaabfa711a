import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applying, inStory, openStory, planning, type Story } from '../library/story.js';

/*
 * The PR comment of `plan --markdown` lists every login test with its result, passing ones too, and
 * the tests whose claims get something else from the plan than from what Nomad holds now. `plan
 * --json` carries the same results as data. The commands run in-process on the sandbox's clock.
 */
let ws: Story;
beforeAll(async () => {
  ws = await openStory({ copyExamples: true });
});
afterAll(async () => ws.close());

const TESTS = ['engineers-can-deploy-anywhere', 'sales-cannot-log-in', 'main-branch-deploys-only-default', 'other-branches-cannot-deploy'];

describe('login tests in the plan', () => {
  it('plan --markdown lists passing login tests, and plan --json carries them', async () => {
    const md = await inStory(ws, planning({ markdown: true }));
    expect(md.code, md.stderr).toBe(0);
    expect(md.stdout).toContain('### Login tests');
    expect(md.stdout).toContain(`${TESTS.length} of ${TESTS.length} login tests pass against this plan.`);
    for (const name of TESTS) expect(md.stdout).toMatch(new RegExp(`\\| \`${name}\` \\| \`[a-z-]+\` \\| pass \\|`));
    // Nothing applied yet: Nomad holds no auth method, so every login is refused there today.
    expect(md.stdout).toContain('- `engineers-can-deploy-anywhere` (`okta`): refused (auth-method "okta" not found) → roles developer; policies operator, readonly');

    const json = await inStory(ws, planning({ json: true }), { json: true });
    expect(json.code, json.stderr).toBe(0);
    const plan = JSON.parse(json.stdout) as { loginTests: { liveRead: boolean; results: { name: string; passed: boolean; changed: boolean }[] } };
    expect(plan.loginTests.liveRead).toBe(true);
    expect(plan.loginTests.results.map((r) => [r.name, r.passed])).toEqual(TESTS.map((n) => [n, true]));
  });

  it('a binding rule change that takes a role away shows those claims changing outcome', async () => {
    const applied = await inStory(ws, applying({ pollInterval: '50ms' }));
    expect(applied.code, applied.stderr).toBe(0);
    const same = await inStory(ws, planning({ markdown: true }));
    expect(same.stdout).toContain('No login test\'s claims change outcome between what Nomad holds now and this plan.');

    const rules = join(ws.dir, 'nomad', 'binding-rules.yaml');
    await writeFile(rules, (await readFile(rules, 'utf8')).replace('"engineering" in list.groups', '"platform" in list.groups'));
    // The pull request updates the test with the rule, so the plan runs.
    const tests = join(ws.dir, 'nomad', 'login-tests.yaml');
    const text = await readFile(tests, 'utf8');
    const expectBlock = text.slice(text.indexOf('  expect:\n    roles: [developer]'), text.indexOf('---', text.indexOf('roles: [developer]')));
    await writeFile(tests, text.replace(expectBlock, '  expect:\n    refused: true\n'));

    const md = await inStory(ws, planning({ markdown: true }));
    expect(md.code, md.stderr).toBe(0);
    expect(md.stdout).toContain('**Claims that change outcome**');
    expect(md.stdout).toContain('- `engineers-can-deploy-anywhere` (`okta`): roles developer; policies operator, readonly → refused (no role or policy bindings matched');
    expect(md.stdout).not.toContain('`sales-cannot-log-in` (`okta`):');
  });
});
