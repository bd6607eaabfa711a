import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/async/manual-clock.js';
import { isConvergeError } from '../../src/diagnostics/errors.js';
import { MemoryReporter } from '../../src/model/events.js';
import { createHttpClient } from '../../src/http/client.js';
import type { HttpClient } from '../../src/http/types.js';
import { RequestLog } from '../../src/sandbox/common/request-log.js';
import { startNomadSimulator } from '../../src/sandbox/nomad/index.js';
import { createNomadVariablesBackend } from '../../src/state/nomad/index.js';
import { transpileTree } from '../state/transpile.js';

/*
 * Lease behaviour of the Nomad state lock. Nomad's minimum lock TTL is 10s (docs/reference/nomad-api.md §9,
 * enforced by the simulator): the simulator and the in-process backends share a manual clock the tests move,
 * so minutes of leases take no real time. The crashing holder is a separate node process running the
 * transpiled source; it dies right after taking the lock, so its own (real) clock never matters.
 */

const REPO = fileURLToPath(new URL('../../', import.meta.url));
let childDir: string;
let childBackend: string;

type Sim = Awaited<ReturnType<typeof startNomadSimulator>>;
let sim: Sim;
let http: HttpClient;
const log = new RequestLog();
const clock = new ManualClock();

beforeAll(async () => {
  sim = await startNomadSimulator({ host: '127.0.0.1', port: 0, log, clock });
  http = createHttpClient({ baseUrl: sim.url });
  childDir = await mkdtemp(join(tmpdir(), 'converge-nomad-child-'));
  childBackend = await transpileTree(join(REPO, 'src/state/nomad/index.ts'), REPO, childDir);
});

afterAll(async () => {
  await http?.close();
  await sim?.stop();
  if (childDir) await rm(childDir, { recursive: true, force: true });
});

const newPath = () => `converge/slow-${randomBytes(4).toString('hex')}`;

async function lockError(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await p;
  } catch (e) {
    if (isConvergeError(e)) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error('expected the lock to be refused');
}

/** A converge process that takes the lock, writes the state, says so on stdout, and waits to be killed (never unlocking). */
function startHolder(path: string): Promise<{ child: ChildProcess; id: string }> {
  const code = `
    const { createNomadVariablesBackend } = await import(process.env.CHILD_BACKEND);
    const b = createNomadVariablesBackend({
      address: process.env.SIM_URL, token: process.env.SIM_TOKEN, path: process.env.STATE_PATH,
      lockTtl: '10s', lockDelay: '1s', holder: { owner: 'doomed', host: 'child', pid: process.pid },
    });
    const lock = await b.lock('apply', { timeoutMs: 0 });
    const doc = await b.read();
    await b.write({ ...doc, serial: doc.serial + 1, records: [], salt: 'written-by-the-doomed-run' });
    process.stdout.write(JSON.stringify(lock.info) + '\\n');
    setInterval(() => {}, 1000); // stay alive: the renewal timer is unref'd on purpose
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], {
    env: { ...process.env, CHILD_BACKEND: childBackend, SIM_URL: sim.url, SIM_TOKEN: sim.managementToken, STATE_PATH: path },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const line = out.split('\n')[0];
      if (out.includes('\n') && line) resolve({ child, id: (JSON.parse(line) as { id: string }).id });
    });
    child.on('exit', (c) => reject(new Error(`holder exited early with ${c}`)));
    child.on('error', reject);
  });
}

describe('Nomad state lock leases', () => {
  it('a holder that is SIGKILLed between write and unlock: the next run gets the lock after the TTL, no human needed', async () => {
    const path = newPath();
    const { child, id } = await startHolder(path);
    const b = createNomadVariablesBackend({ address: sim.url, token: sim.managementToken, path, http, lockPollMs: 250, clock });
    // Between write and unlock: the holder committed its state and dies holding the lock.
    child.kill('SIGKILL');

    const refused = await lockError(b.lock('apply', { timeoutMs: 0 }));
    expect(refused.code).toBe('state.locked');
    expect(refused.message).toContain('doomed@child');
    expect(refused.message).toContain(id);

    // Nomad's timer runs 2 x the 10s TTL from the acquire, then the 1s LockDelay: still held just before 21s.
    await clock.advance(20_900);
    expect((await lockError(b.lock('apply', { timeoutMs: 0 }))).code).toBe('state.locked');
    await clock.advance(200);
    const lock = await b.lock('apply', { timeoutMs: 0 });
    // Its committed write survived the crash.
    expect(await b.read()).toMatchObject({ serial: 1, salt: 'written-by-the-doomed-run' });
    await lock.release();
  });

  it('a live holder keeps the lock past its TTL by renewing every TTL/3', async () => {
    const path = newPath();
    const holder = createNomadVariablesBackend({ address: sim.url, token: sim.managementToken, path, http, lockTtl: '10s', lockDelay: '1s', clock });
    const lock = await holder.lock('apply', { timeoutMs: 0 });
    // Past the first lease and Nomad's 2 x TTL timer: only the renewals keep it.
    await clock.advanceInSteps(23_000, 500);
    const other = createNomadVariablesBackend({ address: sim.url, token: sim.managementToken, path, http });
    expect((await lockError(other.lock('apply', { timeoutMs: 0 }))).code).toBe('state.locked');
    const renewals = log.entries({ method: 'PUT' }).filter((e) => e.path.endsWith(`${path}-lock`) && e.query.includes('lock-renew'));
    expect(renewals.length).toBeGreaterThanOrEqual(2);
    expect(renewals.every((e) => e.status === 200)).toBe(true);
    await lock.release();
    const mine = await other.lock('apply', { timeoutMs: 0 });
    await mine.release();
  });

  it('a 60s lease held through a 2-minute apply that writes the state is still held at the end (lock-rewrite regression)', async () => {
    const path = newPath();
    const reporter = new MemoryReporter();
    const holder = createNomadVariablesBackend({ address: sim.url, token: sim.managementToken, path, http, lockTtl: '60s', reporter, clock });
    const lock = await holder.lock('apply', { timeoutMs: 0 });
    for (let serial = 1; serial <= 12; serial++) {
      const doc = await holder.read();
      await holder.write({ ...doc, serial: doc.serial + 1, salt: `write-${serial}` });
      await clock.advanceInSteps(10_000, 1_000);
    }
    const other = createNomadVariablesBackend({ address: sim.url, token: sim.managementToken, path, http });
    expect((await lockError(other.lock('apply', { timeoutMs: 0 }))).code).toBe('state.locked');
    const codes = reporter.events.map((e) => e.code);
    expect(codes).not.toContain('state.lock.lost');
    await lock.release();
    expect(reporter.events.map((e) => e.code)).not.toContain('state.lock.release-lost');
  });
});
