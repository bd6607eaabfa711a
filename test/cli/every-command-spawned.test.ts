import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { givenApplied, REPO, runCli, workspacePerTest } from '../e2e/harness.js';
import { LOCAL_STATE_SETTINGS, OKTA_METHOD } from '../e2e/manifests.js';

/*
 * The small CLI suite: stories run the library in-process (test/library/story.ts), so what only a process shows
 * (exit codes, what goes to stdout and what to stderr) must still be seen once per command. The first test lists
 * the commands `converge --help` names and finds, for each, a test file that runs it as a process; the others
 * run the commands no other quick test spawns.
 */

/** Every test file under test/, relative to the repository. */
function testFiles(dir = join(REPO, 'test')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? testFiles(join(dir, e.name)) : e.name.endsWith('.test.ts') ? [relative(REPO, join(dir, e.name))] : [],
  );
}

/** The subcommands a `--help` text lists under "Commands:" (without `help`). */
function commandsOf(help: string): string[] {
  // The section ends where the next heading (`Examples:`) starts, at the margin.
  const section = (help.split(/^Commands:$/m)[1] ?? '').split(/^\S/m)[0] ?? '';
  return [...section.matchAll(/^ {2}(\w[\w-]*)/gm)].map((m) => m[1] ?? '').filter((c) => c !== 'help');
}

const env = { PATH: process.env.PATH ?? '', HOME: REPO };
const workspace = workspacePerTest();

describe('every command runs as a process in some test', () => {
  it('each command of `converge --help` (and of its groups) is spawned by at least one test file', async () => {
    const top = await runCli(['--help'], { cwd: REPO, env });
    expect(top.code).toBe(0);
    expect(top.stderr).toBe('');
    const commands: string[][] = [];
    for (const c of commandsOf(top.stdout)) {
      const sub = commandsOf((await runCli([c, '--help'], { cwd: REPO, env })).stdout);
      if (sub.length === 0) commands.push([c]);
      else for (const s of sub) commands.push([c, s]);
    }
    expect(commands.length).toBeGreaterThan(10);
    const texts = testFiles().map((f) => ({ file: f, text: readFileSync(join(REPO, f), 'utf8') }));
    // A spawn's argument list starts with the command's words: `['state', 'list'`, `['export'`.
    const spawnedBy = (words: string[]) => texts.filter((t) => t.text.includes(`[${words.map((w) => `'${w}'`).join(', ')}`)).map((t) => t.file);
    const missing = commands.filter((words) => spawnedBy(words).length === 0).map((w) => w.join(' '));
    expect(missing, 'commands no test runs as a process: add one to this file').toEqual([]);
  });
});

describe('commands no other quick test spawns: exit code and the stdout/stderr split', () => {
  it('destroy --auto-approve: the result on stdout, the plan on stderr, exit 0; then nothing to destroy', async () => {
    const ws = await workspace();
    await ws.write('settings.yaml', LOCAL_STATE_SETTINGS);
    await ws.write('method.yaml', OKTA_METHOD);
    await givenApplied(ws);
    const r = await ws.cli(['destroy', '--auto-approve']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('NomadAuthMethod/okta');
    expect(r.stdout).toContain('Apply complete: 1 succeeded.');
    expect(r.stdout).not.toContain('Destroy plan');
    expect(r.stdout + r.stderr).not.toContain(ws.env.OKTA_CLIENT_SECRET);
    expect(ws.sandbox.log.writes('nomad').map((e) => `${e.method} ${e.path}`)).toEqual(['DELETE /v1/acl/auth-method/okta']);
    const again = await ws.cli(['destroy', '--auto-approve']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('Nothing to destroy');
  });

  it('state rm: the result on stdout, exit 0; an address not in the state is an error on stderr, exit 1', async () => {
    const ws = await workspace();
    await ws.write('settings.yaml', LOCAL_STATE_SETTINGS);
    await ws.write('method.yaml', OKTA_METHOD);
    await givenApplied(ws);
    const r = await ws.cli(['state', 'rm', 'NomadAuthMethod/okta']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Removed NomadAuthMethod/okta from state');
    expect(r.stderr).toBe('');
    const again = await ws.cli(['state', 'rm', 'NomadAuthMethod/okta']);
    expect(again.code).toBe(1);
    expect(again.stdout).toBe('');
    expect(again.stderr).toContain('Error: NomadAuthMethod/okta is not in');
    // Forgetting sends nothing (the log starts after the apply that made the method), and the method stays live.
    expect(ws.sandbox.log.writes('nomad')).toEqual([]);
    expect((await fetch(`${ws.sandbox.nomad.url}/v1/acl/auth-method/okta`, { headers: { 'X-Nomad-Token': ws.sandbox.nomad.managementToken } })).status).toBe(200);
  });

  it('demo: runs the examples against its own sandbox, narrating on stderr, exit 0', async () => {
    const r = await runCli(['demo'], { cwd: REPO, env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('Done. The sandbox answered');
    expect(r.stderr).toContain('Sandbox: Nomad at http://127.0.0.1:');
  }, 120_000);
});
