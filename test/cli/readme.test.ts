import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, REPO, runCli } from './run-cli.js';

/*
 * README.md is the command reference: every command and `--flag` it names must exist in the built
 * CLI's help, and every command the CLI has must be in the README. The quick start stays first.
 */

const readme = readFileSync(join(REPO, 'README.md'), 'utf8');

describe('README', () => {
  let help = '';
  // The "Commands:" list only: the examples after it also start with two spaces and a word.
  const commandsSection = (page: string) => (page.split('\nCommands:\n')[1] ?? '').split('\n\n')[0] ?? '';
  let commands: string[] = [];

  beforeAll(async () => {
    assertBuilt();
    const env = cleanEnv(REPO);
    const top = await runCli(['--help'], REPO, env);
    commands = [...commandsSection(top.stdout).matchAll(/^ {2}([a-z]+) /gm)].map((m) => m[1] ?? '').filter((c) => c !== 'help');
    const state = await runCli(['state', '--help'], REPO, env);
    const stateCommands = [...commandsSection(state.stdout).matchAll(/^ {2}([a-z]+) /gm)].map((m) => m[1] ?? '').filter((c) => c !== 'help');
    const login = await runCli(['login', '--help'], REPO, env);
    const loginCommands = [...commandsSection(login.stdout).matchAll(/^ {2}([a-z]+) /gm)].map((m) => m[1] ?? '').filter((c) => c !== 'help');
    const pages = await Promise.all([
      ...commands.map((c) => runCli([c, '--help'], REPO, env)),
      ...stateCommands.map((c) => runCli(['state', c, '--help'], REPO, env)),
      ...loginCommands.map((c) => runCli(['login', c, '--help'], REPO, env)),
    ]);
    help = [top.stdout, state.stdout, login.stdout, ...pages.map((p) => p.stdout)].join('\n');
    commands.push(...stateCommands.map((c) => `state ${c}`), ...loginCommands.map((c) => `login ${c}`));
  });

  it('keeps the quick start at the top', () => {
    const quick = readme.indexOf('## Quick start');
    expect(quick).toBeGreaterThan(0);
    expect(readme.indexOf('\n## ')).toBe(quick - 1);
    expect(readme).toContain('npm ci && npm start');
    expect(readme).toContain('npm ci && npm test');
    expect(readme).not.toContain('filled in by docs generation');
  });

  // Regression: `npm ci` in a fresh clone built dist/ through `prepare`, which also ran (and warned) in
  // every consumer's install; the build moved to `prepack`, so `npm start` builds for itself.
  it('builds before `npm start` and `npm test`, with no prepare script', () => {
    const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.prepare).toBeUndefined();
    expect(pkg.scripts.start).toMatch(/^npm run build && /);
    expect(pkg.scripts.test).toContain('npm run build');
  });

  // Regression: `npm i -D converge-cli` is a 404 until the package is published.
  it('says how to install converge before the package is on the registry', () => {
    expect(readme).toContain('npm ci && npm pack');
    expect(readme).toMatch(/npm i -D \.\/converge-cli-\d+\.\d+\.\d+\.tgz/);
  });

  it('documents every command the CLI has', () => {
    expect(commands.length).toBeGreaterThan(8);
    for (const c of commands) expect(readme, c).toContain(`converge ${c}`);
  });

  it('names only flags that exist', () => {
    const flags = new Set([...readme.matchAll(/`(-{1,2}[a-z][a-z-]*)/g)].map((m) => m[1] ?? ''));
    expect(flags.size).toBeGreaterThan(20);
    const missing = [...flags].filter((f) => !new RegExp(`(^|[\\s,])${f}(?=[\\s,]|$)`, 'm').test(help));
    expect(missing).toEqual([]);
  });

  it('lists every environment variable the source reads', () => {
    // Every source file but the sandbox's (the simulators read no user environment).
    const files = readdirSync(join(REPO, 'src'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && !f.startsWith('sandbox'));
    const src = files.map((f) => readFileSync(join(REPO, 'src', f), 'utf8')).join('\n');
    const used = new Set([...src.matchAll(/\benv\.([A-Z][A-Z0-9_]+)/g)].map((m) => m[1] ?? ''));
    // A list emptied by a moved file must fail, not pass vacuously: these are read for certain.
    for (const known of ['NOMAD_ADDR', 'NOMAD_TOKEN', 'TFE_TOKEN', 'TFE_ORGANIZATION', 'TF_CLI_CONFIG_FILE', 'NO_COLOR']) expect(used, known).toContain(known);
    for (const v of used) expect(readme, v).toContain(v);
  });
});
