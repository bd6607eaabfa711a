import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isConvergeError } from '../../src/diagnostics/errors.js';
import { ManualClock } from '../../src/async/manual-clock.js';
import { createHttpClient } from '../../src/http/client.js';
import type { HttpClient } from '../../src/http/types.js';
import { MemoryReporter } from '../../src/model/events.js';
import { RequestLog } from '../../src/sandbox/common/request-log.js';
import { startNomadSimulator } from '../../src/sandbox/nomad/index.js';
import { createNomadVariablesBackend, type NomadVariablesBackendOptions } from '../../src/state/nomad/index.js';
import type { StateDocument, StateRecord } from '../../src/state/types.js';

/*
 * The Nomad Variables state backend against the Nomad simulator over loopback (no mocks).
 * Lease expiry and a SIGKILLed lock holder take real TTLs (Nomad's minimum is 10s): they are in
 * test/slow/state-nomad-lock-expiry.test.ts (`npm run test:slow`).
 */

type Sim = Awaited<ReturnType<typeof startNomadSimulator>>;

let sim: Sim;
let http: HttpClient;
const log = new RequestLog();
let n = 0;

beforeAll(async () => {
  sim = await startNomadSimulator({ host: '127.0.0.1', port: 0, log });
  http = createHttpClient({ baseUrl: sim.url });
});

afterAll(async () => {
  await http?.close();
  await sim?.stop();
});

let path: string;
beforeEach(() => {
  // A fresh state path per test: tests share one simulator.
  path = `converge/test-${++n}-${randomBytes(3).toString('hex')}`;
  log.clear();
});

/** Lock-acquire requests the simulator answered since the log held `from` entries. */
const acquiresSince = (from: number) => log.entries().slice(from).filter((e) => e.query.includes('lock-acquire')).length;

function backend(extra: Partial<NomadVariablesBackendOptions> = {}) {
  return createNomadVariablesBackend({ address: sim.url, token: sim.managementToken, path, http, lockPollMs: 100, ...extra });
}

function record(name: string, extra: Record<string, string> = {}): StateRecord {
  return {
    kind: 'NomadAuthMethod',
    name,
    id: name,
    applied: { type: 'OIDC', ...extra },
    secretDigests: { 'config.oidcClientSecret': `sha256:${randomBytes(16).toString('hex')}` },
    extra: {},
    protect: false,
    updatedAt: new Date().toISOString(),
  };
}

function next(doc: StateDocument, records: StateRecord[]): StateDocument {
  return { ...doc, serial: doc.serial + 1, records };
}

async function rejection(p: Promise<unknown>): Promise<{ code: string; message: string; hint?: string }> {
  try {
    await p;
  } catch (e) {
    if (isConvergeError(e)) return { code: e.code, message: e.message, ...(e.hint ? { hint: e.hint } : {}) };
    throw e;
  }
  throw new Error('expected a rejection');
}

/** Variable paths under the state path, through the real list endpoint. */
async function listPaths(prefix: string): Promise<string[]> {
  const res = await http.request({ method: 'GET', path: '/v1/vars', query: { prefix }, headers: { 'X-Nomad-Token': sim.managementToken } });
  expect(res.status).toBe(200);
  return (JSON.parse(res.text) as { Path: string }[]).map((v) => v.Path).sort();
}

describe('configuration is checked before any request', () => {
  it.each([
    ['converge.state', /only letters, digits/],
    ['', /empty/],
    ['/converge/state', /leading, trailing/],
    ['nomad/converge', /reserved/],
    ['x'.repeat(100), /characters/],
  ])('rejects the path %j with state.nomad.bad-path', (bad, why) => {
    let err: unknown;
    try {
      createNomadVariablesBackend({ address: 'http://127.0.0.1:1', token: 't', path: bad, http });
    } catch (e) {
      err = e;
    }
    expect(isConvergeError(err) && err.code).toBe('state.nomad.bad-path');
    expect((err as Error).message).toMatch(why);
  });

  it('rejects a lock TTL outside 10s–24h (Nomad would 400)', () => {
    expect(() => createNomadVariablesBackend({ address: sim.url, token: 't', path: 'a/b', http, lockTtl: '5s' })).toThrow(/10s to 24h/);
    expect(() => createNomadVariablesBackend({ address: sim.url, token: 't', path: 'a/b', http, lockTtl: 'soon' })).toThrow(/not a duration/);
  });

  it('describes itself with path and namespace', () => {
    expect(backend().description).toBe(`Nomad Variables ${path} (namespace default)`);
  });
});

describe('read and write', () => {
  it('reads an empty state when nothing was written, and sends no writes', async () => {
    const doc = await backend().read();
    expect(doc).toMatchObject({ version: 1, serial: 0, records: [] });
    expect(doc.salt).toMatch(/^[0-9a-f]{32}$/);
    expect(log.writes('nomad')).toEqual([]);
  });

  it('round-trips a state through another backend instance', async () => {
    const a = backend();
    const doc = next(await a.read(), [record('okta'), record('auth0', { note: 'ünïcødé ✓' })]);
    await a.write(doc);
    expect(await backend().read()).toEqual(doc);
  });

  it('rejects a write with state.conflict when someone else wrote since our read', async () => {
    const a = backend();
    const b = backend();
    const base = await a.read();
    await a.write(next(base, [record('first')]));
    const seenByA = await a.read();
    const seenByB = await b.read();
    await a.write(next(seenByA, [record('a-wins')]));
    const err = await rejection(b.write(next(seenByB, [record('b-loses')])));
    expect(err.code).toBe('state.conflict');
    expect(err.message).toContain(path);
    // The loser's chunks are removed; the winner's state is intact.
    expect((await backend().read()).records.map((r) => r.name)).toEqual(['a-wins']);
    // After reading again, b can write.
    const fresh = await b.read();
    await b.write(next(fresh, [record('b-after-reread')]));
    expect((await a.read()).records.map((r) => r.name)).toEqual(['b-after-reread']);
  });

  it('two first writers: the second gets state.conflict (cas=0 is create-only)', async () => {
    const a = backend();
    const b = backend();
    const da = await a.read();
    const db = await b.read();
    await a.write(next(da, [record('a')]));
    expect((await rejection(b.write(next(db, [record('b')])))).code).toBe('state.conflict');
  });

  it('splits a big state (> 64 KiB, incompressible) across chunks, round-trips it and cleans old chunks', async () => {
    const a = backend();
    // Random hex does not compress below ~50%: 200 KiB of it needs several 60 000-character chunks.
    const records = Array.from({ length: 50 }, (_, i) => record(`m${i}`, { blob: randomBytes(2048).toString('hex') }));
    const doc = next(await a.read(), records);
    expect(JSON.stringify(doc).length).toBeGreaterThan(64 * 1024);
    await a.write(doc);
    const chunks = (await listPaths(`${path}/chunk-`)).length;
    expect(chunks).toBeGreaterThanOrEqual(3);
    expect(await backend().read()).toEqual(doc);

    // A second generation replaces the first; the first generation's chunks are deleted.
    const smaller = next(await a.read(), records.slice(0, 5));
    await a.write(smaller);
    expect(await backend().read()).toEqual(smaller);
    expect((await listPaths(`${path}/chunk-`)).length).toBe(1);
  });

  it('never lets a reader see a torn state while a writer commits big states', async () => {
    const writer = backend();
    const reader = backend();
    const seen = new Set<number>();
    let writing = true;
    const readLoop = (async () => {
      while (writing) {
        const d = await reader.read(); // throws state.corrupt on a torn read
        seen.add(d.serial);
        expect(d.records.every((r) => r.name === `s${d.serial}`)).toBe(true);
      }
    })();
    try {
      for (let i = 0; i < 6; i++) {
        const cur = await writer.read();
        const records = Array.from({ length: 12 }, () => ({ ...record(`s${cur.serial + 1}`), applied: { blob: randomBytes(4096).toString('hex') } }));
        await writer.write(next(cur, records));
      }
    } finally {
      writing = false;
      await readLoop;
    }
    expect(seen.size).toBeGreaterThan(1);
  });

  it('keeps the state when the lock variable is locked and released (separate variable)', async () => {
    const a = backend();
    const doc = next(await a.read(), [record('kept')]);
    await a.write(doc);
    const lock = await a.lock('apply', { timeoutMs: 0 });
    expect(await backend().read()).toEqual(doc);
    await lock.release();
    expect(await backend().read()).toEqual(doc);
    expect(await listPaths(path)).toContain(`${path}-lock`);
  });
});

describe('lock', () => {
  const alice = { owner: 'alice', host: 'ci-runner-1', pid: 4242 };

  it('records the holder on the lock variable and releases it', async () => {
    const a = backend({ holder: alice });
    const lock = await a.lock('apply', { timeoutMs: 0 });
    expect(lock.info).toMatchObject({ ...alice, operation: 'apply' });
    expect(lock.info.id).toMatch(/^[0-9a-f-]{36}$/);
    await lock.release();
    const again = await backend().lock('plan', { timeoutMs: 0 });
    await again.release();
  });

  it('makes a second run wait, then fail with state.locked naming the holder', async () => {
    const reporter = new MemoryReporter();
    const held = await backend({ holder: alice }).lock('apply', { timeoutMs: 0 });
    // The waiting run's own clock: its 600 ms of polling every 100 ms pass as the test runs it.
    const clock = new ManualClock();
    const started = clock.now();
    const from = log.size;
    const err = await clock.run(rejection(backend({ reporter, clock }).lock('apply', { timeoutMs: 600 })));
    expect(clock.now() - started).toBe(600);
    // An attempt at 0, 100, …, 600 ms: it waited its whole timeout, polling.
    expect(acquiresSince(from)).toBe(7);
    expect(err.code).toBe('state.locked');
    expect(err.message).toContain('alice@ci-runner-1 (pid 4242)');
    expect(err.message).toContain('"apply"');
    expect(err.message).toContain(held.info.id);
    expect(err.hint).toContain(`converge state unlock ${held.info.id}`);
    expect(reporter.events.map((e) => e.code)).toContain('state.lock.wait');
    await held.release();
  });

  it('gives the lock to a waiting run as soon as the holder releases it', async () => {
    const held = await backend({ holder: alice }).lock('apply', { timeoutMs: 0 });
    const waiting = backend().lock('apply', { timeoutMs: 10_000 });
    setTimeout(() => void held.release(), 300);
    const got = await waiting;
    expect(got.info.operation).toBe('apply');
    await got.release();
  });

  it('a refused lock promises the real recovery time of a dead holder: 2 x the lease plus the lock delay, not the lease', async () => {
    const held = await backend({ holder: alice }).lock('apply', { timeoutMs: 0 });
    const err = await rejection(backend().lock('plan', { timeoutMs: 0 }));
    expect(err.hint).toContain('within 1 min 15 s of its last renewal (2 × the 30s lease, then Nomad\'s 15s lock delay)');
    await held.release();
  });

  it('fails at once with timeoutMs 0', async () => {
    const held = await backend().lock('apply', { timeoutMs: 0 });
    const clock = new ManualClock();
    const from = log.size;
    expect((await clock.run(rejection(backend({ clock }).lock('plan', { timeoutMs: 0 })))).code).toBe('state.locked');
    // One attempt, no wait.
    expect(acquiresSince(from)).toBe(1);
    expect(clock.now()).toBe(new ManualClock().now());
    await held.release();
  });

  it('sends acquire, renew and release as Nomad lock operations on <path>-lock', async () => {
    const lock = await backend().lock('apply', { timeoutMs: 0 });
    await lock.release();
    const ops = log
      .writes('nomad')
      .filter((e) => e.path.endsWith('-lock'))
      .map((e) => `${e.method} ${e.query.replace(/=[^&]*/g, '').split('&').filter((q) => q.startsWith('lock-')).join(',') || 'plain'}`);
    expect(ops[0]).toBe('PUT lock-acquire');
    expect(ops.at(-1)).toBe('PUT lock-release');
  });

  it('never writes the lock variable while holding it: a plain PUT there would reset the lease to the 15s defaults (lock-rewrite regression)', async () => {
    const lock = await backend({ lockTtl: '60s' }).lock('apply', { timeoutMs: 0 });
    const plainWrites = log.writes('nomad').filter((e) => e.path.endsWith('-lock') && !/lock-(acquire|renew|release)/.test(e.query));
    expect(plainWrites).toEqual([]);
    // What Nomad stored is still the lease asked for (only a management token sees Lock).
    const res = await http.request({ method: 'GET', path: `/v1/var/${path}-lock`, headers: { 'X-Nomad-Token': sim.managementToken } });
    expect((JSON.parse(res.text) as { Lock?: { TTL?: string } }).Lock?.TTL).toBe('1m0s');
    await lock.release();
  });

  it('forceUnlock removes a lock left by a run that never released it', async () => {
    const dead = await backend({ holder: alice }).lock('apply', { timeoutMs: 0 });
    const rescuer = backend();
    expect((await rejection(rescuer.lock('apply', { timeoutMs: 0 }))).code).toBe('state.locked');
    await rescuer.forceUnlock(dead.info.id);
    const mine = await rescuer.lock('apply', { timeoutMs: 0 });
    await mine.release();
    // The "dead" run's late release does not throw: it reports that the lock was no longer its.
    await dead.release();
  });

  it('forceUnlock works with a non-management token, which cannot see Lock: Nomad\'s lock ID was recorded beside the lock', async () => {
    const reporter = new MemoryReporter();
    const dead = await backend({ holder: alice, reporter }).lock('apply', { timeoutMs: 0 });
    expect(reporter.events.map((e) => e.code)).not.toContain('state.lock.record-failed');
    const client = backend({ token: sim.clientToken });
    expect((await rejection(client.lock('apply', { timeoutMs: 0 }))).message).toContain('alice@ci-runner-1');
    await client.forceUnlock(dead.info.id);
    const mine = await client.lock('apply', { timeoutMs: 0 });
    await mine.release();
    await dead.release();
  });

  it('forceUnlock refuses an id that is not the current lock, naming the holder', async () => {
    const held = await backend({ holder: alice }).lock('apply', { timeoutMs: 0 });
    const err = await rejection(backend().forceUnlock('00000000-0000-0000-0000-000000000000'));
    expect(err.code).toBe('state.lock-id-mismatch');
    expect(err.message).toContain(held.info.id);
    await held.release();
  });

  it('forceUnlock on an unlocked state says there is nothing to unlock', async () => {
    expect((await rejection(backend().forceUnlock('00000000-0000-0000-0000-000000000000'))).code).toBe('state.not-locked');
    const lock = await backend().lock('apply', { timeoutMs: 0 });
    await lock.release();
    expect((await rejection(backend().forceUnlock(lock.info.id))).code).toBe('state.not-locked');
  });
});
