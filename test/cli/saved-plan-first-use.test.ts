import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applyCommand, type ApplyFlags } from '../../src/cli/commands/apply.js';
import { showCommand } from '../../src/cli/commands/show.js';
import { inProcessWith, inStory, planning, storyPerTest, type CommandStep } from '../library/story.js';

/*
 * Regressions: `apply --plan` silently ignored paths and --target beside it; the saved plan
 * recorded absolute manifest paths, so it broke in another checkout; re-applying an applied plan said
 * objects "appeared since the plan was made (created outside converge?)". Each command runs in-process on the
 * sandbox's clock, with a Host of its own, as a fresh `converge` would.
 */

const story = storyPerTest();
const extra: string[] = [];
afterEach(async () => {
  for (const d of extra.splice(0)) await rm(d, { recursive: true, force: true });
});

/** `converge apply --plan FILE [flags] [paths]`. */
const applyingPlan =
  (file: string, flags: ApplyFlags = {}, paths = ['.']): CommandStep =>
  (h) =>
    applyCommand(h, paths, { plan: file, ...flags });

describe('saved plans', () => {
  it('apply --plan refuses paths, --target and the other plan flags beside it, sending nothing', async () => {
    const s = await story({ copyExamples: true });
    expect((await inStory(s, planning({ out: 'plan.json' }))).code).toBe(0);
    const beside: [ApplyFlags, string[]][] = [
      [{}, ['nomad']],
      [{ target: ['NomadAuthMethod/okta'] }, ['.']],
      [{ adopt: ['NomadAuthMethod/okta'] }, ['.']],
      [{ refreshOnly: true }, ['.']],
      [{ allowEmpty: true }, ['.']],
    ];
    for (const [flags, paths] of beside) {
      const r = await inStory(s, applyingPlan('plan.json', flags, paths));
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('apply --plan takes no manifest paths, --target, --rewrite, --adopt, --adopt-all, --allow-empty or --refresh-only');
    }
    expect(s.sandbox.log.writes()).toEqual([]);
  });

  it('a plan saved in one checkout applies in another, and once applied it says so', async () => {
    const s = await story({ copyExamples: true });
    expect((await inStory(s, planning({ out: 'plan.json' }, ['settings.yaml', 'nomad', 'tfe']))).code).toBe(0);
    const other = await mkdtemp(join(tmpdir(), 'converge-other-checkout-'));
    extra.push(other);
    await cp(s.dir, other, { recursive: true });
    const apply = await inProcessWith({ cwd: other, env: s.env, clock: s.clock }, applyingPlan('plan.json'));
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);

    const again = await inProcessWith({ cwd: other, env: s.env, clock: s.clock }, applyingPlan('plan.json'));
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('this saved plan was already applied');
    expect(again.stderr).not.toContain('appeared since the plan was made');
  });

  it('converge show renders a saved plan as text, JSON and Markdown, reading nothing else', async () => {
    const s = await story({ copyExamples: true });
    const plan = await inStory(s, planning({ json: true, out: 'plan.json' }), { json: true });
    expect(plan.code, plan.stderr).toBe(0);
    s.sandbox.log.clear();
    const text = await inStory(s, (h) => showCommand(h, 'plan.json', {}), {}, { NOMAD_TOKEN: '', TFE_TOKEN: '', OKTA_CLIENT_SECRET: '' });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('NomadAuthMethod/okta');
    expect(text.stdout).toMatch(/Plan: \d+ to create/);
    const json = await inStory(s, (h) => showCommand(h, 'plan.json', { json: true }), { json: true });
    expect(JSON.parse(json.stdout)).toEqual(JSON.parse(plan.stdout));
    const md = await inStory(s, (h) => showCommand(h, 'plan.json', { markdown: true }));
    expect(md.stdout).toContain('converge plan (plan.json)');
    expect(s.sandbox.log.entries()).toEqual([]);
    expect((await inStory(s, (h) => showCommand(h, 'missing.json', {}))).stderr).toContain('missing.json');
  });
});
