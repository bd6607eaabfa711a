import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { driftCommand } from '../../src/cli/commands/drift.js';
import { validateCommand } from '../../src/cli/commands/validate.js';
import { inProcessWith, planning, type CommandStep, type HostFlags } from '../library/story.js';
import { cleanEnv, EXAMPLE_SECRETS, REPO, sandboxProject } from './run-cli.js';

/*
 * Under GitHub Actions (GITHUB_ACTIONS=true): validation problems become workflow commands that
 * annotate the files (https://docs.github.com/actions/reference/workflow-commands-for-github-actions),
 * and plan / drift append their Markdown to $GITHUB_STEP_SUMMARY. The commands read the environment their Host
 * is given, so they run in-process here.
 */

describe('GitHub Actions integration', () => {
  const project = sandboxProject(['settings.yaml', 'nomad']);
  const gh = (extra: Record<string, string> = {}) => project.env({ NO_COLOR: '1', GITHUB_ACTIONS: 'true', ...extra });
  const run = (step: CommandStep, env: NodeJS.ProcessEnv, flags: HostFlags = {}) => inProcessWith({ cwd: project.dir, env, ...flags }, step);

  it('validate: ::error and ::warning annotations with file, line and col', async () => {
    const broken = await readFile(join(REPO, 'test/fixtures/manifests/invalid/am-ttl-invalid.yaml'), 'utf8');
    const warned = await readFile(join(REPO, 'test/fixtures/manifests/valid/expected-warnings.yaml'), 'utf8');
    await writeFile(join(project.dir, 'broken.yaml'), broken);
    await writeFile(join(project.dir, 'warned.yaml'), warned);
    try {
      const r = await run((h) => validateCommand(h, ['broken.yaml', 'warned.yaml'], {}), gh());
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/^::error file=broken\.yaml,line=6,col=\d+,endLine=\d+,endColumn=\d+,title=[^:]+::.*not a duration/m);
      expect(r.stdout).toMatch(/^::warning file=warned\.yaml,line=3,col=\d+,.*::.*underscore/m);
      // --json keeps stdout one JSON document; the annotations move to stderr.
      const json = await run((h) => validateCommand(h, ['broken.yaml'], { json: true }), gh(), { json: true });
      expect(JSON.parse(json.stdout)).toMatchObject({ valid: false });
      expect(json.stderr).toMatch(/^::error file=broken\.yaml,line=6,/m);
      // Without GITHUB_ACTIONS: no workflow commands.
      const plain = await run((h) => validateCommand(h, ['broken.yaml'], {}), cleanEnv(project.dir));
      expect(plain.stdout + plain.stderr).not.toContain('::error');
    } finally {
      const { rm } = await import('node:fs/promises');
      await rm(join(project.dir, 'broken.yaml'), { force: true });
      await rm(join(project.dir, 'warned.yaml'), { force: true });
    }
  });

  it('plan and drift append their Markdown to $GITHUB_STEP_SUMMARY; stdout stays as asked', { timeout: 60_000 }, async () => {
    const summary = join(project.dir, 'step-summary.md');
    await writeFile(summary, '');
    const plan = await run(planning({ json: true }), gh({ GITHUB_STEP_SUMMARY: summary }), { json: true });
    expect(plan.code, plan.stderr).toBe(0);
    expect(JSON.parse(plan.stdout)).toHaveProperty('formatVersion'); // --json output untouched
    let text = await readFile(summary, 'utf8');
    expect(text).toMatch(/^## converge plan\n/);
    expect(text).toContain('| Create | Update | Delete | Upgrade |');
    expect(text).toContain('<details>');
    const drift = await run((h) => driftCommand(h, ['.'], {}), gh({ GITHUB_STEP_SUMMARY: summary }));
    expect([0, 2]).toContain(drift.code);
    text = await readFile(summary, 'utf8');
    expect(text).toMatch(/## converge plan[\s\S]*## converge drift/);
    for (const secret of Object.values(EXAMPLE_SECRETS)) expect(text).not.toContain(secret);
    expect(text).not.toContain(project.sandbox.env.NOMAD_TOKEN);
  });

  it('no GITHUB_ACTIONS: $GITHUB_STEP_SUMMARY is left alone', async () => {
    const summary = join(project.dir, 'untouched.md');
    await writeFile(summary, '');
    const r = await run(planning(), project.env({ GITHUB_STEP_SUMMARY: summary }));
    expect(r.code, r.stderr).toBe(0);
    expect(await readFile(summary, 'utf8')).toBe('');
  });
});
