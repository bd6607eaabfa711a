import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { runCli } from '../e2e/harness.js';
import { errorCases, expectCleanRejection, expectMarkedLocations, INVALID } from '../bad-input/corpus.js';

/*
 * The whole invalid corpus through the built CLI, one process per case and command (plan and
 * apply --auto-approve): ~190 processes, too slow for `npm test`, where test/bad-input/corpus-cli.test.ts
 * runs every case in-process and a sample through the CLI.
 */
let sandbox: Sandbox;
let work: string;

beforeAll(async () => {
  sandbox = await startSandbox({ stepDelayMs: 5 });
  work = await mkdtemp(join(tmpdir(), 'converge-bad-input-slow-'));
  await cp(INVALID, work, { recursive: true });
});
afterAll(async () => {
  await sandbox?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('every invalid fixture through the built CLI', () => {
  it('plan and apply --auto-approve exit 1 at a marked file:line:col, no stack, nothing sent, nothing written', async () => {
    const before = (await readdir(work, { recursive: true })).map(String).sort();
    const env = { PATH: process.env.PATH ?? '', HOME: work, ...sandbox.env, OKTA_CLIENT_SECRET: 'slow-okta-7Qx', VPC_DB_PASSWORD: 'slow-db-7Qx' };
    const cases = errorCases();
    expect(cases.length).toBeGreaterThanOrEqual(60);
    for (const c of cases) {
      const runs = await Promise.all([['plan', c.name], ['apply', '--auto-approve', c.name]].map(async (args) => ({ args, r: await runCli(args, { cwd: work, env }) })));
      for (const { args, r } of runs) expectMarkedLocations(c, expectCleanRejection(r, args.join(' ')), args.join(' '));
    }
    expect(sandbox.log.entries()).toEqual([]);
    expect((await readdir(work, { recursive: true })).map(String).sort()).toEqual(before);
  });
});
