import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/async/manual-clock.js';
import { stateMigrate } from '../../src/cli/commands/state.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { createLocalBackend } from '../../src/state/local-backend.js';
import { createNomadVariablesBackend } from '../../src/state/nomad/index.js';
import type { StateBackend } from '../../src/state/types.js';
import { applying, inProcessWith, listing, planning, type CommandStep } from '../library/story.js';
import { assertBuilt, cleanEnv, EXAMPLE_SECRETS, runCli, tempProject } from './run-cli.js';

/*
 * `apply --lock-timeout` against a lock another holder has (local file and Nomad Variables), and
 * `converge state migrate` between the two backends. The commands' own code runs in-process (`inProcessWith`)
 * against the sandbox, the holder and the command all waiting on one ManualClock, so the lock waits take no
 * real time; an unknown `--to` goes through the built CLI (the process path of `state migrate`).
 */

/** `converge state migrate --to TO [--path PATH]`. */
const migrating = (to: string, path?: string): CommandStep => (h) => stateMigrate(h, { to, ...(path !== undefined ? { path } : {}) }, ['.']);

async function useSettings(dir: string, state: string): Promise<void> {
  await writeFile(join(dir, 'settings.yaml'), `kind: Settings\nname: settings\nspec:\n  tfe: { organization: acme }\n  state: ${state}\n`);
}

describe('state lock and migrate through the CLI', () => {
  let sandbox: Sandbox;
  let project: { dir: string; cleanup: () => Promise<void> };
  const clock = new ManualClock();
  const env = () => cleanEnv(project.dir, { ...sandbox.env, ...EXAMPLE_SECRETS, NO_COLOR: '1' });
  const run = (step: CommandStep) => inProcessWith({ cwd: project.dir, env: env(), clock }, step);

  beforeAll(async () => {
    assertBuilt();
    sandbox = await startSandbox({ stepDelayMs: 5, clock });
    project = await tempProject(['nomad']);
    await mkdir(join(project.dir, '.converge'), { recursive: true });
  });
  afterAll(async () => {
    await sandbox?.stop();
    await project?.cleanup();
  });

  const backends: { name: string; settings: string; make: () => StateBackend }[] = [
    { name: 'local file', settings: '{ backend: local, path: .converge/lock-test.json }', make: () => createLocalBackend(join(project.dir, '.converge', 'lock-test.json'), { clock }) },
    {
      name: 'Nomad Variables',
      settings: '{ backend: nomad, path: converge/lock-test }',
      make: () => createNomadVariablesBackend({ address: sandbox.env.NOMAD_ADDR ?? '', token: sandbox.env.NOMAD_TOKEN ?? '', path: 'converge/lock-test', clock }),
    },
  ];

  for (const b of backends) {
    describe(`--lock-timeout (${b.name})`, () => {
      beforeEach(() => useSettings(project.dir, b.settings));

      it('says who holds the lock, waits, and applies once it is released', async () => {
        const held = await b.make().lock('held by the lock test', { timeoutMs: 0 });
        // Released only once the command says it waits, and 500 ms later on the clock, so the wait is real.
        let released: Promise<void> | undefined;
        const onStderr = (soFar: string) => {
          if (released === undefined && soFar.includes('Waiting up to')) released = clock.sleep(500).then(() => held.release());
        };
        const r = await inProcessWith({ cwd: project.dir, env: env(), clock, onStderr }, applying({ adoptAll: true, lockTimeout: '30s' }));
        expect(released, r.stderr).toBeDefined();
        await released;
        expect(r.code, r.stderr).toBe(0);
        expect(r.stderr).toContain('Waiting up to 30s (--lock-timeout) for the state lock.');
        expect(r.stderr).toContain(`"held by the lock test"`);
        expect(r.stderr).toContain(held.info.owner);
        expect(r.stderr).toContain('Got the state lock.');
        expect(r.stderr.match(/Waiting up to/g)).toHaveLength(1);
      });

      it('gives up after the timeout and names the holder and the lock id', async () => {
        const held = await b.make().lock('still held', { timeoutMs: 0 });
        try {
          const r = await run(applying({ adoptAll: true, lockTimeout: '1s' }));
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
    it('local → nomad → local keeps every record, and refuses a non-empty target', async () => {
      await useSettings(project.dir, '{ backend: local, path: .converge/migrate.json }');
      // A new state over objects an earlier test made: consent to take them (decisions.md §27).
      const applied = await run(applying({ adoptAll: true }));
      expect(applied.code, applied.stderr).toBe(0);
      const local = JSON.parse(await readFile(join(project.dir, '.converge', 'migrate.json'), 'utf8')) as { records: { kind: string; name: string }[]; salt: string };
      expect(local.records.length).toBeGreaterThan(0);

      const toNomad = await run(migrating('nomad', 'converge/migrated'));
      expect(toNomad.code, toNomad.stderr).toBe(0);
      expect(toNomad.stdout).toContain(`Copied ${local.records.length} records`);

      // Point Settings at the new backend: same records, and a plan shows no changes.
      await useSettings(project.dir, '{ backend: nomad, path: converge/migrated }');
      const list = await run(listing());
      expect(list.code, list.stderr).toBe(0);
      expect(list.stdout.trim().split('\n').map((l) => l.split('\t')[0]).sort()).toEqual(local.records.map((r) => `${r.kind}/${r.name}`).sort());
      const nomadDoc = await createNomadVariablesBackend({ address: sandbox.env.NOMAD_ADDR ?? '', token: sandbox.env.NOMAD_TOKEN ?? '', path: 'converge/migrated', clock }).read();
      expect(nomadDoc.salt).toBe(local.salt); // digests stay comparable: no spurious secret changes
      const plan = await run(planning({ detailedExitcode: true }));
      expect(plan.code, plan.stdout + plan.stderr).toBe(0);

      // Back to a new local file.
      const back = await run(migrating('local', '.converge/back.json'));
      expect(back.code, back.stderr).toBe(0);
      expect(existsSync(join(project.dir, '.converge', 'back.json'))).toBe(true);
      const again = await run(migrating('local', '.converge/back.json'));
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
