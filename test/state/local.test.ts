import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/async/manual-clock.js';
import { createLocalBackend } from '../../src/state/local-backend.js';
import type { LockInfo } from '../../src/state/types.js';
import { runBackendConformance } from './conformance.js';
import { transpileTree } from './transpile.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
let childDir: string;
let childBackend: string;

beforeAll(async () => {
  childDir = await mkdtemp(join(tmpdir(), 'converge-child-'));
  childBackend = await transpileTree(join(REPO, 'src/state/local-backend.ts'), REPO, childDir);
});
afterAll(async () => {
  await rm(childDir, { recursive: true, force: true });
});

/** A separate node process takes the lock, writes the state, and exits without unlocking. */
function crashingHolder(statePath: string): Promise<LockInfo> {
  const code = `
    const { createLocalBackend } = await import(process.env.CHILD_BACKEND);
    const b = createLocalBackend(process.env.STATE_PATH);
    const lock = await b.lock('apply', { timeoutMs: 0 });
    const doc = await b.read();
    await b.write({ ...doc, serial: doc.serial + 1 });
    process.stdout.write(JSON.stringify(lock.info));
    process.exit(0);
  `;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', code], {
      env: { ...process.env, CHILD_BACKEND: childBackend, STATE_PATH: statePath },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (status) => (status === 0 ? resolve(JSON.parse(out) as LockInfo) : reject(new Error(`child failed (${status}): ${err}`))));
  });
}

runBackendConformance(
  'local file',
  async () => {
    const dir = await mkdtemp(join(tmpdir(), 'converge-state-'));
    const path = join(dir, 'nested', 'state.json');
    const clock = new ManualClock();
    return {
      a: createLocalBackend(path, { lockPollMs: 20, clock }),
      b: createLocalBackend(path, { lockPollMs: 20, clock }),
      clock,
      crashHolder: () => crashingHolder(path),
      cleanup: () => rm(dir, { recursive: true, force: true }),
    };
  },
  { deadHolder: 'pid' },
);

describe('local state backend', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'converge-local-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('never silently discards a corrupt file: state.corrupt names it', async () => {
    const path = join(dir, 'corrupt.json');
    await writeFile(path, '{"version": 1, "salt": "ab", "serial": 3, "records": [');
    await expect(createLocalBackend(path).read()).rejects.toMatchObject({ code: 'state.corrupt', source: 'user', message: expect.stringContaining(path) });
    await writeFile(path, JSON.stringify({ version: 1, salt: 'ab', serial: 1, records: [{ kind: 'Nope', name: 'x', id: 'x' }] }));
    await expect(createLocalBackend(path).read()).rejects.toMatchObject({ code: 'state.corrupt', message: expect.stringContaining('records[0]') });
    await writeFile(path, JSON.stringify({ version: 9, salt: 'ab', serial: 1, records: [] }));
    await expect(createLocalBackend(path).read()).rejects.toMatchObject({ code: 'state.version' });
    // And it was left exactly as it was.
    expect(JSON.parse(await readFile(path, 'utf8'))).toMatchObject({ version: 9 });
  });

  it('writes atomically: no temp files left, mode 0600, pretty JSON', async () => {
    const sub = join(dir, 'atomic');
    const path = join(sub, 'state.json');
    const b = createLocalBackend(path);
    const doc = await b.read();
    for (let i = 1; i <= 5; i++) await b.write({ ...doc, serial: i });
    expect(await readdir(sub)).toEqual(['state.json']);
    const { statSync } = await import('node:fs');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(await readFile(path, 'utf8')).toMatch(/^\{\n {2}"version": 1,/);
  });

  it('the lock file holds LockInfo with owner user@host, host and pid', async () => {
    const path = join(dir, 'lockinfo.json');
    const b = createLocalBackend(path);
    const lock = await b.lock('apply', { timeoutMs: 0 });
    const info = JSON.parse(await readFile(`${path}.lock`, 'utf8')) as LockInfo;
    expect(info).toEqual(lock.info);
    expect(info).toMatchObject({ host: hostname(), pid: process.pid, operation: 'apply' });
    expect(info.owner.endsWith(`@${hostname()}`)).toBe(true);
    expect(info.id).toMatch(/^[0-9a-f-]{36}$/);
    await lock.release();
    await expect(readFile(`${path}.lock`)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('never takes over a lock from another host, even with a pid that is not running here', async () => {
    const path = join(dir, 'other-host.json');
    const other = createLocalBackend(path, { holder: { owner: 'ci@runner-7', host: 'runner-7.example', pid: 2 ** 22 + 17 } });
    const held = await other.lock('apply', { timeoutMs: 0 });
    await expect(createLocalBackend(path).lock('plan', { timeoutMs: 0 })).rejects.toMatchObject({ code: 'state.locked' });
    await held.release();
  });

  it('never takes over a lock whose holder is alive on this host', async () => {
    const path = join(dir, 'alive.json');
    const held = await createLocalBackend(path, { holder: { owner: 'me@here', host: hostname(), pid: process.ppid } }).lock('apply', { timeoutMs: 0 });
    await expect(createLocalBackend(path).lock('plan', { timeoutMs: 0 })).rejects.toMatchObject({ code: 'state.locked' });
    await held.release();
  });

  it('two processes racing for one dead lock: exactly one takes it over', async () => {
    const path = join(dir, 'race.json');
    const dead = await crashingHolder(path);
    const results = await Promise.allSettled([createLocalBackend(path).lock('a', { timeoutMs: 0 }), createLocalBackend(path).lock('b', { timeoutMs: 0 })]);
    const won = results.filter((r): r is PromiseFulfilledResult<Awaited<ReturnType<ReturnType<typeof createLocalBackend>['lock']>>> => r.status === 'fulfilled');
    expect(won).toHaveLength(1);
    // The loser may slip in first with a plain create after the winner moved the dead file aside:
    // either way one live holder remains and the dead lock is gone.
    expect(won[0]?.value.info.id).not.toBe(dead.id);
    const lost = results.find((r) => r.status === 'rejected');
    expect((lost as PromiseRejectedResult).reason).toMatchObject({ code: 'state.locked' });
    const onDisk = JSON.parse(await readFile(`${path}.lock`, 'utf8')) as LockInfo;
    expect(onDisk.id).toBe(won[0]?.value.info.id);
    await won[0]?.value.release();
  });

  it('force-unlock of an unlocked state says so', async () => {
    await expect(createLocalBackend(join(dir, 'free.json')).forceUnlock('x')).rejects.toMatchObject({ code: 'state.not-locked' });
  });
});
