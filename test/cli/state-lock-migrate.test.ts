import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { createLocalBackend } from '../../src/state/local-backend.js';
import { createNomadVariablesBackend } from '../../src/state/nomad/index.js';
import type { StateBackend } from '../../src/state/types.js';
import { assertBuilt, cleanEnv, EXAMPLE_SECRETS, runCli, tempProject } from './run-cli.js';

/*
 * `apply --lock-timeout` against a lock another process holds (local file and Nomad Variables),
 * and `converge state migrate` between the two backends, through the built CLI and the sandbox.
 */

async function useSettings(dir: string, state: string): Promise<void> {
  await writeFile(join(dir, 'settings.yaml'), `kind: Settings\nname: settings\nspec:\n  tfe: { organization: acme }\n  state: ${state}\n`);
}

describe('state lock and migrate through the CLI', () => {
  let sandbox: Sandbox;
  let project: { dir: string; cleanup: () => Promise<void> };
  const env = () => cleanEnv(project.dir, { ...sandbox.env, ...EXAMPLE_SECRETS, NO_COLOR: '1' });

  beforeAll(async () => {
    assertBuilt();
    sandbox = await startSandbox({ stepDelayMs: 5 });
    project = await tempProject(['nomad']);
    await mkdir(join(project.dir, '.converge'), { recursive: true });
  });
  afterAll(async () => {
    await sandbox?.stop();
    await project?.cleanup();
  });

  const backends: { name: string; settings: string; make: () => StateBackend }[] = [
    { name: 'local file', settings: '{ backend: local, path: .converge/lock-test.json }', make: () => createLocalBackend(join(project.dir, '.converge', 'lock-test.json')) },
    {
      name: 'Nomad Variables',
      settings: '{ backend: nomad, path: converge/lock-test }',
      make: () => createNomadVariablesBackend({ address: sandbox.env.NOMAD_ADDR ?? '', token: sandbox.env.NOMAD_TOKEN ?? '', path: 'converge/lock-test' }),
    },
  ];

  for (const b of backends) {
    describe(`--lock-timeout (${b.name})`, () => {
      beforeEach(() => useSettings(project.dir, b.settings));

      it('says who holds the lock, waits, and applies once it is released', { timeout: 60_000 }, async () => {
        const held = await b.make().lock('held by the lock test', { timeoutMs: 0 });
        // Released only once the CLI says it waits (a fixed delay raced a slow start on a busy machine),
        // and a little later, so the wait is real.
        let released: Promise<void> | undefined;
        const r = await runCli(['apply', '--auto-approve', '--adopt-all', '--lock-timeout', '30s'], project.dir, env(), (soFar) => {
          if (released === undefined && soFar.includes('Waiting up to')) {
            released = new Promise<void>((resolve) => setTimeout(() => void held.release().then(resolve), 500));
          }
        });
        expect(released, r.stderr).toBeDefined();
        await released;
        expect(r.code, r.stderr).toBe(0);
        expect(r.stderr).toContain('Waiting up to 30s (--lock-timeout) for the state lock.');
        expect(r.stderr).toContain(`"held by the lock test"`);
        expect(r.stderr).toContain(held.info.owner);
        expect(r.stderr).toContain('Got the state lock.');
        expect(r.stderr.match(/Waiting up to/g)).toHaveLength(1);
      });

      it('gives up after the timeout and names the holder and the lock id', { timeout: 60_000 }, async () => {
        const held = await b.make().lock('still held', { timeoutMs: 0 });
        try {
          const r = await runCli(['apply', '--auto-approve', '--adopt-all', '--lock-timeout', '1s'], project.dir, env());
          expect(r.code).toBe(1);
          // It waited for the lock before giving up (the wait itself is timed on a manual clock in test/state).
          expect(r.stderr).toContain('Waiting up to 1s (--lock-timeout) for the state lock.');
          expect(r.stderr).toMatch(/Error: The .* is locked: .*"still held"/);
          expect(r.stderr).toContain(held.info.id);
          expect(r.stderr).toContain('converge state unlock');
        } finally {
          await held.release();
        }
      });
    });
  }

  describe('state migrate', () => {
    it('local → nomad → local keeps every record, and refuses a non-empty target', { timeout: 60_000 }, async () => {
      await useSettings(project.dir, '{ backend: local, path: .converge/migrate.json }');
      // A new state over objects an earlier test made: consent to take them (decisions.md §27).
      const applied = await runCli(['apply', '--auto-approve', '--adopt-all'], project.dir, env());
      expect(applied.code, applied.stderr).toBe(0);
      const local = JSON.parse(await readFile(join(project.dir, '.converge', 'migrate.json'), 'utf8')) as { records: { kind: string; name: string }[]; salt: string };
      expect(local.records.length).toBeGreaterThan(0);

      const toNomad = await runCli(['state', 'migrate', '--to', 'nomad', '--path', 'converge/migrated'], project.dir, env());
      expect(toNomad.code, toNomad.stderr).toBe(0);
      expect(toNomad.stdout).toContain(`Copied ${local.records.length} records`);

      // Point Settings at the new backend: same records, and a plan shows no changes.
      await useSettings(project.dir, '{ backend: nomad, path: converge/migrated }');
      const list = await runCli(['state', 'list'], project.dir, env());
      expect(list.code, list.stderr).toBe(0);
      expect(list.stdout.trim().split('\n').map((l) => l.split('\t')[0]).sort()).toEqual(local.records.map((r) => `${r.kind}/${r.name}`).sort());
      const nomadDoc = await createNomadVariablesBackend({ address: sandbox.env.NOMAD_ADDR ?? '', token: sandbox.env.NOMAD_TOKEN ?? '', path: 'converge/migrated' }).read();
      expect(nomadDoc.salt).toBe(local.salt); // digests stay comparable: no spurious secret changes
      const plan = await runCli(['plan', '--detailed-exitcode'], project.dir, env());
      expect(plan.code, plan.stdout + plan.stderr).toBe(0);

      // Back to a new local file.
      const back = await runCli(['state', 'migrate', '--to', 'local', '--path', '.converge/back.json'], project.dir, env());
      expect(back.code, back.stderr).toBe(0);
      expect(existsSync(join(project.dir, '.converge', 'back.json'))).toBe(true);
      const again = await runCli(['state', 'migrate', '--to', 'local', '--path', '.converge/back.json'], project.dir, env());
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(/already holds \d+ records/);
    });

    it('rejects an unknown backend', async () => {
      const r = await runCli(['state', 'migrate', '--to', 's3'], project.dir, env());
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('--to s3: unknown backend');
    });
  });
});
