import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { ManualClock } from '../../src/async/manual-clock.js';
import { RequestLog } from '../../src/sandbox/common/request-log.js';
import { startNomadSimulator } from '../../src/sandbox/nomad/index.js';
import { createNomadVariablesBackend } from '../../src/state/nomad/index.js';
import type { LockInfo } from '../../src/state/types.js';
import { runBackendConformance } from './conformance.js';
import { transpileTree } from './transpile.js';

/*
 * The same StateBackend conformance suite as the local file backend, against the Nomad simulator
 * over loopback. A dead holder's lock clears by itself after its lease: the crashed child uses
 * Nomad's minimum TTL (10s) and a 1s lock delay, and the simulator runs on a manual clock that the
 * test moves past them (2 x TTL + delay, docs/reference/nomad-api.md §9) instead of waiting ~21s.
 */

const REPO = fileURLToPath(new URL('../../', import.meta.url));
type Sim = Awaited<ReturnType<typeof startNomadSimulator>>;
let sim: Sim;
const clock = new ManualClock();
let childDir: string;
let childBackend: string;

beforeAll(async () => {
  sim = await startNomadSimulator({ host: '127.0.0.1', port: 0, log: new RequestLog(), clock });
  childDir = await mkdtemp(join(tmpdir(), 'converge-nomad-child-'));
  childBackend = await transpileTree(join(REPO, 'src/state/nomad/index.ts'), REPO, childDir);
});

afterAll(async () => {
  await sim?.stop();
  if (childDir) await rm(childDir, { recursive: true, force: true });
});

/** A separate node process takes the lock, writes the state, and exits without unlocking. */
function crashingHolder(path: string): Promise<LockInfo> {
  const code = `
    const { createNomadVariablesBackend } = await import(process.env.CHILD_BACKEND);
    const b = createNomadVariablesBackend({
      address: process.env.SIM_URL, token: process.env.SIM_TOKEN, path: process.env.STATE_PATH,
      lockTtl: '10s', lockDelay: '1s',
    });
    const lock = await b.lock('apply', { timeoutMs: 0 });
    const doc = await b.read();
    await b.write({ ...doc, serial: doc.serial + 1 });
    process.stdout.write(JSON.stringify(lock.info));
    process.exit(0);
  `;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', code], {
      env: { ...process.env, CHILD_BACKEND: childBackend, SIM_URL: sim.url, SIM_TOKEN: sim.managementToken, STATE_PATH: path },
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
  'Nomad Variables',
  async () => {
    const path = `converge/conformance-${randomBytes(4).toString('hex')}`;
    // The backends' own clock (lock polling), apart from the simulator's (leases): ManualClock.run moves it.
    const waits = new ManualClock();
    const open = () => createNomadVariablesBackend({ address: sim.url, token: sim.managementToken, path, lockPollMs: 50, clock: waits });
    const a = open();
    const b = open();
    return {
      a,
      b,
      clock: waits,
      crashHolder: () => crashingHolder(path),
      outliveLease: () => clock.advance(2 * 10_000 + 1_000 + 100),
      cleanup: async () => {
        await a.close();
        await b.close();
      },
    };
  },
  { deadHolder: 'lease' },
);
