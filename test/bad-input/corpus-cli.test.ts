import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyCommand } from '../../src/cli/commands/apply.js';
import { planCommand } from '../../src/cli/commands/plan.js';
import { driftCommand } from '../../src/cli/commands/drift.js';
import { Host } from '../../src/cli/host.js';
import { runCommand } from '../../src/cli/run-command.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { runCli } from '../e2e/harness.js';
import { errorCases, expectCleanRejection, expectMarkedLocations, INVALID, type CorpusCase } from './corpus.js';

/*
 * Every invalid fixture stops plan, apply --auto-approve and drift before a single request: exit 1,
 * a file:line:col diagnostic at the marked line, no stack trace, an empty sandbox request log and no
 * file written. All cases run in-process through the same command functions the CLI calls (fast);
 * a sample of them runs through the built CLI here, and test/bad-input/corpus-every-case-plan-and-apply.test.ts
 * runs plan and apply with the CLI's Host options, checks that no secret is printed, and spawns four more families.
 */

const cases = errorCases();
let sandbox: Sandbox;
let work: string;
let before: string[];

async function listTree(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true })).map(String).sort();
}

beforeAll(async () => {
  sandbox = await startSandbox({ stepDelayMs: 5 });
  work = await mkdtemp(join(tmpdir(), 'converge-bad-input-'));
  await cp(INVALID, work, { recursive: true });
  before = await listTree(work);
});

afterAll(async () => {
  await sandbox?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

function env(): Record<string, string> {
  // Every secret a fixture could name is set, so what stops the run is the fixture's own error.
  return { PATH: process.env.PATH ?? '', HOME: work, ...sandbox.env, OKTA_CLIENT_SECRET: 'bad-input-okta-secret-7Qx', VPC_DB_PASSWORD: 'bad-input-db-7Qx' };
}

async function inProcess(run: (host: Host) => Promise<number>, extraEnv: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const host = new Host({
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    env: { ...env(), ...extraEnv },
    cwd: work,
    verbosity: 'normal',
    color: false,
    tick: false,
  });
  const code = await runCommand(host, run);
  return { code, stdout, stderr };
}

const COMMANDS: Record<string, (c: CorpusCase) => (host: Host) => Promise<number>> = {
  plan: (c) => (h) => planCommand(h, [c.name], {}),
  'plan --json --out': (c) => (h) => planCommand(h, [c.name], { json: true, out: 'saved-plan.json' }),
  'apply --auto-approve': (c) => (h) => applyCommand(h, [c.name], { autoApprove: true }),
  drift: (c) => (h) => driftCommand(h, [c.name], {}),
};

describe('the invalid corpus stops every run before a request', () => {
  it('has at least 60 error cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(60);
  });

  it('in-process: plan, plan --json --out, apply --auto-approve and drift reject every case cleanly', async () => {
    for (const c of cases) {
      for (const [label, command] of Object.entries(COMMANDS)) {
        const r = await inProcess(command(c));
        const locs = expectCleanRejection(r, `${label} ${c.name}`);
        expectMarkedLocations(c, locs, `${label} ${c.name}`);
      }
    }
    expect(sandbox.log.entries()).toEqual([]);
    expect(await listTree(work)).toEqual(before); // no state, no lock, no saved plan
  });

  it('under GitHub Actions every case also gives ::error annotations with file, line and col at a marked line', async () => {
    for (const c of cases) {
      const r = await inProcess((h) => planCommand(h, [c.name], {}), { GITHUB_ACTIONS: 'true' });
      expect(r.code, c.name).toBe(1);
      const annotations = [...r.stderr.matchAll(/^::error file=([^,]+),line=(\d+),col=(\d+),/gm)].map((m) => `${m[1]}:${m[2]}:${m[3]}`);
      expect(annotations.length, `${c.name}\n${r.stderr}`).toBeGreaterThan(0);
      expectMarkedLocations(c, annotations, `annotations ${c.name}`);
    }
    expect(sandbox.log.entries()).toEqual([]);
  });

  // One case of each family (document, YAML, auth method, binding rule, no-code, settings, folders).
  const SAMPLE = ['am-secret-file-missing.yaml', 'am-ttl-invalid.yaml', 'br-selector-unterminated.yaml', 'dir-default-across-files', 'doc-multi-errors.yaml', 'ncw-unknown-module.yaml', 'settings-backend-enum.yaml', 'yaml-unclosed-flow.yaml'];

  it('through the built CLI: plan and apply --auto-approve reject a sample of every family cleanly', async () => {
    const sample = cases.filter((c) => SAMPLE.includes(c.name));
    expect(sample.map((c) => c.name)).toEqual(SAMPLE);
    for (const c of sample) {
      for (const args of [['plan', c.name], ['apply', '--auto-approve', c.name]]) {
        const r = await runCli(args, { cwd: work, env: env() });
        const locs = expectCleanRejection(r, `${args.join(' ')}`);
        expectMarkedLocations(c, locs, args.join(' '));
      }
    }
    expect(sandbox.log.entries()).toEqual([]);
    expect(await listTree(work)).toEqual(before);
  });
});
