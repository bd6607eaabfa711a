import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isConvergeError } from '../../src/diagnostics/errors.js';
import { createHttpClient } from '../../src/http/client.js';
import type { HttpClient } from '../../src/http/types.js';
import { RequestLog } from '../../src/sandbox/common/request-log.js';
import { startNomadSimulator } from '../../src/sandbox/nomad/index.js';
import { encodeState } from '../../src/state/nomad/chunking.js';
import { createNomadVariablesBackend, type NomadVariablesBackendOptions } from '../../src/state/nomad/index.js';
import { openStateStore } from '../../src/state/state-store.js';
import type { StateRecord } from '../../src/state/types.js';
import { transpileTree } from './transpile.js';

/*
 * O(1) saves on the Nomad Variables backend: a save writes one small journal entry and the head
 * (O(1) in the size of the state), a kill between saves loses nothing acknowledged, and the journal is
 * folded back into the chunks (head v1, no entries left) when a run closes.
 */

const REPO = fileURLToPath(new URL('../../', import.meta.url));
type Sim = Awaited<ReturnType<typeof startNomadSimulator>>;
let sim: Sim;
let http: HttpClient;
let childDir: string;
let childStore: string;
let childBackend: string;

beforeAll(async () => {
  sim = await startNomadSimulator({ host: '127.0.0.1', port: 0, log: new RequestLog() });
  http = createHttpClient({ baseUrl: sim.url });
  childDir = await mkdtemp(join(tmpdir(), 'converge-nomad-journal-'));
  // Two trees: transpileTree links node_modules into the directory it is given, once.
  childStore = await transpileTree(join(REPO, 'src/state/state-store.ts'), REPO, await mkdtemp(join(childDir, 'store-')));
  childBackend = await transpileTree(join(REPO, 'src/state/nomad/index.ts'), REPO, await mkdtemp(join(childDir, 'backend-')));
});

afterAll(async () => {
  await http?.close();
  await sim?.stop();
  if (childDir) await rm(childDir, { recursive: true, force: true });
});

const newPath = () => `converge/journal-${randomBytes(4).toString('hex')}`;

/** Written as a JS source too, so the child process saves the very same records. */
const RECORD_SOURCE = `(i, pad) => ({
  kind: 'NoCodeWorkspace', name: 'ws-' + String(i).padStart(5, '0'), id: 'ws-' + i,
  applied: { n: i, pad }, secretDigests: {}, extra: {}, protect: false, updatedAt: '1970-01-01T00:00:00.000Z',
})`;
const record = (i: number, pad = ''): StateRecord =>
  ({ kind: 'NoCodeWorkspace', name: 'ws-' + String(i).padStart(5, '0'), id: 'ws-' + i, applied: { n: i, pad }, secretDigests: {}, extra: {}, protect: false, updatedAt: '1970-01-01T00:00:00.000Z' }) as StateRecord;

/** Counts what the backend sends: requests and JSON body bytes. */
function countingHttp(): { http: HttpClient; sent: { requests: number; bytes: number; puts: string[] } } {
  const sent = { requests: 0, bytes: 0, puts: [] as string[] };
  const counted: HttpClient = {
    baseUrl: http.baseUrl,
    request: (req) => {
      sent.requests += 1;
      if (req.body !== undefined) sent.bytes += Buffer.byteLength(JSON.stringify(req.body));
      if (req.method === 'PUT') sent.puts.push(req.path);
      return http.request(req);
    },
    stats: () => http.stats(),
    close: () => Promise.resolve(),
  };
  return { http: counted, sent };
}

const backend = (path: string, extra: Partial<NomadVariablesBackendOptions> = {}) =>
  createNomadVariablesBackend({ address: sim.url, token: sim.managementToken, path, http, lockPollMs: 50, ...extra });

async function rawGet(path: string): Promise<{ Items: Record<string, string>; ModifyIndex: number } | undefined> {
  const res = await http.request({ method: 'GET', path: `/v1/var/${path}`, headers: { 'X-Nomad-Token': sim.managementToken } });
  return res.status === 404 ? undefined : (JSON.parse(res.text) as { Items: Record<string, string>; ModifyIndex: number });
}

async function rawPut(path: string, items: Record<string, string>): Promise<void> {
  const res = await http.request({ method: 'PUT', path: `/v1/var/${path}`, body: { Path: path, Items: items }, headers: { 'X-Nomad-Token': sim.managementToken } });
  expect(res.status).toBe(200);
}

/** Every variable under `prefix`, following the simulator's small pages. */
async function listPaths(prefix: string): Promise<string[]> {
  const out: string[] = [];
  let next: string | undefined;
  do {
    const res = await http.request({ method: 'GET', path: '/v1/vars', query: { prefix, ...(next ? { next_token: next } : {}) }, headers: { 'X-Nomad-Token': sim.managementToken } });
    out.push(...(JSON.parse(res.text) as { Path: string }[]).map((v) => v.Path));
    next = res.headers['x-nomad-nexttoken'] || undefined;
  } while (next);
  return out.sort();
}

describe('Nomad state saves cost O(1) per object', () => {
  it('a save of one record sends one journal entry and the head, a few KiB, however big the state has grown', async () => {
    const path = newPath();
    const { http: counted, sent } = countingHttp();
    // Incompressible padding: 150 records make a state of ~230 KiB (several chunks) that a whole-state write would resend each time.
    const store = await openStateStore(createNomadVariablesBackend({ address: sim.url, token: sim.managementToken, path, http: counted }), { lock: true, operation: 'apply', lockTimeoutMs: 0 });
    const perSave: { bytes: number; puts: number }[] = [];
    for (let i = 0; i < 150; i++) {
      const before = { bytes: sent.bytes, puts: sent.puts.length };
      await store.put(record(i, randomBytes(768).toString('hex')));
      perSave.push({ bytes: sent.bytes - before.bytes, puts: sent.puts.length - before.puts });
    }
    await store.close();
    const late = perSave.slice(100);
    // Most saves are one entry + one head; a few fold the journal into the chunks (when it outgrows 64 KiB).
    const plain = late.filter((s) => s.puts === 2);
    expect(plain.length).toBeGreaterThanOrEqual(45);
    for (const s of plain) expect(s.bytes).toBeLessThan(4 * 1024);
    const total = late.reduce((sum, s) => sum + s.bytes, 0);
    // 50 saves of ~1.6 KiB records: a whole-state write per save would send ~50 × 200 KiB.
    expect(total / late.length).toBeLessThan(8 * 1024);

    const doc = await backend(path).read();
    expect(doc.records.map((r) => r.name)).toEqual(Array.from({ length: 150 }, (_, i) => record(i).name));
    // Closed: the journal is folded, the head is one a converge from before the journal reads.
    expect((await rawGet(path))?.Items.format).toBe('converge-state-v1');
    expect(await listPaths(`${path}/journal-`)).toEqual([]);
  });

  it('an unclosed store leaves a v2 head whose journal a fresh reader replays after the snapshot', async () => {
    const path = newPath();
    const store = await openStateStore(backend(path), { lock: false, operation: 'apply', lockTimeoutMs: 0 });
    for (let i = 0; i < 5; i++) await store.put(record(i));
    await store.remove({ kind: 'NoCodeWorkspace', name: record(2).name });
    const head = await rawGet(path);
    expect(head?.Items).toMatchObject({ format: 'converge-state-v2', journal: '5', serial: '6' });
    const doc = await backend(path).read();
    expect(doc.serial).toBe(6);
    expect(doc.records.map((r) => r.applied.n)).toEqual([0, 1, 3, 4]);
  });
});

describe('a state written before the journal', () => {
  it('reads as before, takes journal saves, and folds back to the same v1 head format at close', async () => {
    const path = newPath();
    // The head and chunk exactly as converge wrote them before the journal (format v1, no journal keys).
    const old = { version: 1, salt: 'ab'.repeat(16), serial: 4, records: [record(0), record(1)] };
    const encoded = encodeState(JSON.stringify(old));
    await rawPut(`${path}/chunk-0-0a0b0c0d-0`, { data: encoded.chunks[0] ?? '' });
    await rawPut(path, { format: 'converge-state-v1', serial: '4', generation: '0-0a0b0c0d', chunks: '1', sha256: encoded.sha256, encoding: 'gzip+base64', bytes: String(encoded.bytes), writeId: '0-0a0b0c0d' });
    expect(await backend(path).read()).toEqual(old);

    const store = await openStateStore(backend(path), { lock: true, operation: 'apply', lockTimeoutMs: 0 });
    await store.put(record(2));
    expect((await rawGet(path))?.Items).toMatchObject({ format: 'converge-state-v2', journal: '1', serial: '5' });
    expect((await backend(path).read()).records.map((r) => r.applied.n)).toEqual([0, 1, 2]);
    await store.close();
    const head = (await rawGet(path))?.Items ?? {};
    expect(Object.keys(head).sort()).toEqual(['bytes', 'chunks', 'encoding', 'format', 'generation', 'lockId', 'serial', 'sha256', 'writeId']);
    expect(head.format).toBe('converge-state-v1');
    expect(await listPaths(`${path}/chunk-`)).toEqual([`${path}/chunk-${head.generation ?? ''}-0`]);
  });
});

describe('a change too big for one variable', () => {
  it('is saved as a whole-state write (chunks), so no entry passes the 64 KiB limit', async () => {
    const path = newPath();
    const store = await openStateStore(backend(path), { lock: false, operation: 'apply', lockTimeoutMs: 0 });
    await store.put(record(0));
    await store.put(record(1));
    expect((await rawGet(path))?.Items.format).toBe('converge-state-v2');
    // 80 000 hex characters: more than a variable holds, gzipped to a few chunks.
    await store.put(record(2, randomBytes(40_000).toString('hex')));
    expect((await rawGet(path))?.Items.format).toBe('converge-state-v1');
    await store.put(record(3));
    const doc = await backend(path).read();
    expect(doc.records.map((r) => r.applied.n)).toEqual([0, 1, 2, 3]);
    expect(await listPaths(`${path}/journal-`)).toHaveLength(1);
  });
});

describe('the journal format is checked', () => {
  async function journaled(): Promise<string> {
    const path = newPath();
    const store = await openStateStore(backend(path), { lock: false, operation: 'apply', lockTimeoutMs: 0 });
    for (let i = 0; i < 3; i++) await store.put(record(i));
    return path;
  }
  const readError = async (path: string): Promise<unknown> => backend(path).read().then(() => undefined, (e: unknown) => e);

  it('a head of a newer format is refused, naming the formats this converge reads', async () => {
    const path = await journaled();
    const head = await rawGet(path);
    await rawPut(path, { ...head?.Items, format: 'converge-state-v3' });
    const e = await readError(path);
    expect(isConvergeError(e) && e.code).toBe('state.version');
    expect((e as Error).message).toMatch(/converge-state-v3; this converge reads converge-state-v1 and converge-state-v2/);
  });

  it('an entry of a newer format is refused', async () => {
    const path = await journaled();
    const last = (await rawGet(path))?.Items.journalLast ?? '';
    const entry = await rawGet(`${path}/journal-${last}`);
    await rawPut(`${path}/journal-${last}`, { ...entry?.Items, format: 'converge-journal-v2' });
    const e = await readError(path);
    expect(isConvergeError(e) && e.code).toBe('state.version');
  });

  it('an entry deleted by hand is reported as missing, not as a state that kept changing', async () => {
    const path = await journaled();
    const last = (await rawGet(path))?.Items.journalLast ?? '';
    const res = await http.request({ method: 'DELETE', path: `/v1/var/${path}/journal-${last}`, headers: { 'X-Nomad-Token': sim.managementToken } });
    expect(res.status).toBe(204);
    const e = await readError(path);
    expect(isConvergeError(e) && e.code).toBe('state.corrupt');
    expect((e as Error).message).toMatch(/names a chunk or journal entry that does not exist/);
  });

  it('an entry edited by hand breaks the hash chain and is refused as corrupt, never replayed', async () => {
    const path = await journaled();
    const last = (await rawGet(path))?.Items.journalLast ?? '';
    const entry = await rawGet(`${path}/journal-${last}`);
    await rawPut(`${path}/journal-${last}`, { ...entry?.Items, entry: (entry?.Items.entry ?? '').replace('"n":2', '"n":7') });
    const e = await readError(path);
    expect(isConvergeError(e) && e.code).toBe('state.corrupt');
    expect((e as Error).message).toMatch(/do not match the hash chain/);
  });
});

/** A child process saves records 0..count-1 through a StateStore, printing `ack <i>` once each save resolved. */
function saver(path: string, count: number, onAck: (i: number) => boolean): Promise<number> {
  const code = `
    const { openStateStore } = await import(process.env.CHILD_STORE);
    const { createNomadVariablesBackend } = await import(process.env.CHILD_BACKEND);
    const record = ${RECORD_SOURCE};
    const b = createNomadVariablesBackend({
      address: process.env.SIM_URL, token: process.env.SIM_TOKEN, path: process.env.STATE_PATH,
      lockTtl: '10s', lockDelay: '1s', foldAtChars: 3000,
    });
    const store = await openStateStore(b, { lock: true, operation: 'apply', lockTimeoutMs: 0 });
    for (let i = 0; i < ${count}; i++) {
      await store.put(record(i, 'p'.repeat(100)));
      process.stdout.write('ack ' + i + '\\n');
    }
    process.stdout.write('done\\n');
    await new Promise(() => {});
  `;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', code], {
      env: { ...process.env, CHILD_STORE: childStore, CHILD_BACKEND: childBackend, SIM_URL: sim.url, SIM_TOKEN: sim.managementToken, STATE_PATH: path },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let acked = -1;
    let buffered = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      buffered += d.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        const m = /^ack (\d+)$/.exec(line);
        if (m) acked = Number(m[1]);
        if ((m && onAck(acked)) || line === 'done') child.kill('SIGKILL');
      }
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (_status, signal) => (signal === 'SIGKILL' ? resolve(acked) : reject(new Error(`child ended without being killed: ${err}`))));
  });
}

describe('a kill between journal writes', () => {
  it('loses no acknowledged save, and a rerun converges: every record once, head v1, no entry or stale chunk left', async () => {
    const path = newPath();
    // Killed mid-run (SIGKILL, no close): folds every ~20 saves (foldAtChars 3000), so the kill lands among entries and folds.
    const acked = await saver(path, 200, (i) => i >= 57);
    expect(acked).toBeGreaterThanOrEqual(57);
    const afterKill = await backend(path).read();
    const names = afterKill.records.map((r) => r.name);
    // Everything acknowledged is there; at most the one save in flight at the kill landed beyond it.
    for (let i = 0; i <= acked; i++) expect(names).toContain(record(i).name);
    expect(names.length === acked + 1 || names.length === acked + 2).toBe(true);

    // What a kill between an entry's write and the head's leaves: an entry no head points to.
    const head = await rawGet(path);
    await rawPut(`${path}/journal-${head?.ModifyIndex ?? 0}-0badf00d`, { format: 'converge-journal-v1', entry: '{"serial":999}', prev: '' });

    // The rerun: the dead holder's lock is removed (as `converge state unlock` does), the rest saved, the store closed.
    const b = backend(path);
    const lockId = (await rawGet(`${path}-lock`))?.Items.id ?? '';
    await b.forceUnlock(lockId);
    const store = await openStateStore(b, { lock: true, operation: 'apply', lockTimeoutMs: 0 });
    for (let i = 0; i < 80; i++) if (store.get({ kind: 'NoCodeWorkspace', name: record(i).name }) === undefined) await store.put(record(i, 'p'.repeat(100)));
    await store.close();

    const final = await backend(path).read();
    expect(final.records.map((r) => r.name)).toEqual(Array.from({ length: 80 }, (_, i) => record(i).name));
    const committed = await rawGet(path);
    expect(committed?.Items.format).toBe('converge-state-v1');
    expect(await listPaths(`${path}/journal-`)).toEqual([]);
    expect(await listPaths(`${path}/chunk-`)).toEqual([`${path}/chunk-${committed?.Items.generation ?? ''}-0`]);
  }, 60_000);
});
