import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { runCli, type CliResult } from '../e2e/harness.js';
import { applying, inProcessWith, planning, type CommandStep } from '../library/story.js';
import { errorCases, expectCleanRejection, expectMarkedLocations, INVALID, type CorpusCase } from './corpus.js';

/*
 * The whole invalid corpus as `converge plan CASE` and `converge apply --auto-approve CASE` run it: exit 1,
 * nothing on stdout, a file:line:col diagnostic at a marked line, no stack trace, no secret or token in the
 * output, no request sent, no file written.
 *
 * Every case runs through the commands' own code in this process, with the Host the CLI builds for them
 * (`inProcessWith`: same streams, exit code from the same runCommand). Spawning the built CLI once per case and
 * command (about 130 processes at 1.3 s of CPU each, most of it module loading) showed nothing more; the process
 * path is proved by a spawned sample below, one case of each family that test/bad-input/corpus-cli.test.ts does
 * not spawn, two per command.
 */

let sandbox: Sandbox;
let work: string;
let before: string[];
let env: Record<string, string>;

const listTree = async (dir: string): Promise<string[]> => (await readdir(dir, { recursive: true })).map(String).sort();

beforeAll(async () => {
  sandbox = await startSandbox({ stepDelayMs: 5 });
  work = await mkdtemp(join(tmpdir(), 'converge-bad-input-every-'));
  await cp(INVALID, work, { recursive: true });
  before = await listTree(work);
  // Every secret a fixture could name is set, so what stops the run is the fixture's own error.
  env = { PATH: process.env.PATH ?? '', HOME: work, ...sandbox.env, OKTA_CLIENT_SECRET: 'every-case-okta-7Qx', VPC_DB_PASSWORD: 'every-case-db-7Qx' };
});
afterAll(async () => {
  await sandbox?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

/** The clean rejection of test/bad-input/corpus.ts at a marked line, and none of the secrets or tokens in `env` printed. */
function expectRejected(c: CorpusCase, r: CliResult, label: string): void {
  expectMarkedLocations(c, expectCleanRejection(r, label), label);
  for (const name of ['OKTA_CLIENT_SECRET', 'VPC_DB_PASSWORD', 'NOMAD_TOKEN', 'TFE_TOKEN']) {
    const value = env[name] ?? '';
    expect(value.length, name).toBeGreaterThan(5);
    expect(r.stdout + r.stderr, `${label}: ${name} printed`).not.toContain(value);
  }
}

/** `converge plan CASE` and `converge apply --auto-approve CASE`, as the command line hands them to their code. */
interface Command {
  args: (c: CorpusCase) => string[];
  command: string;
  step: (c: CorpusCase) => CommandStep;
}
const PLAN: Command = { args: (c) => ['plan', c.name], command: 'plan', step: (c) => planning({}, [c.name]) };
const APPLY: Command = { args: (c) => ['apply', '--auto-approve', c.name], command: 'apply', step: (c) => applying({}, [c.name]) };
const COMMANDS = [PLAN, APPLY];

describe('every invalid fixture, plan and apply --auto-approve', () => {
  it('in-process through the commands: exit 1 at a marked file:line:col, no stack, no secret, nothing sent, nothing written', async () => {
    const cases = errorCases();
    expect(cases.length).toBeGreaterThanOrEqual(60);
    for (const c of cases) {
      for (const cmd of COMMANDS) {
        const r = await inProcessWith({ cwd: work, env, command: cmd.command }, cmd.step(c));
        expectRejected(c, r, cmd.args(c).join(' '));
      }
    }
    expect(sandbox.log.entries()).toEqual([]);
    expect(await listTree(work)).toEqual(before);
  });

  // Families the quick corpus test's spawned sample leaves out (ACL, moved, no-code module, set), two per command.
  const SPAWNED: [Command, string][] = [
    [PLAN, 'acl-policy-hcl-unclosed-brace.yaml'],
    [PLAN, 'set-name-duplicate.yaml'],
    [APPLY, 'moved-cycle.yaml'],
    [APPLY, 'ncm-version-pin.yaml'],
  ];

  it('through the built CLI, a sample: the same from a process', async () => {
    const byName = new Map(errorCases().map((c) => [c.name, c]));
    for (const [cmd, name] of SPAWNED) {
      const c = byName.get(name);
      if (c === undefined) throw new Error(`${name} is not an error case of the corpus`);
      const args = cmd.args(c);
      expectRejected(c, await runCli(args, { cwd: work, env }), `spawned ${args.join(' ')}`);
    }
    expect(sandbox.log.entries()).toEqual([]);
    expect(await listTree(work)).toEqual(before);
  });
});
