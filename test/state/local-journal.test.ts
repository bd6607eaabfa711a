import { appendFile, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalBackend } from '../../src/state/local-backend.js';
import { openStateStore } from '../../src/state/state-store.js';
import type { StateRecord } from '../../src/state/types.js';

const rec = (name: string): StateRecord => ({
  kind: 'NoCodeWorkspace',
  name,
  id: `ws-${name}`,
  applied: { module: 'svc00', description: `workspace ${name}`, variables: [{ key: 'region', value: 'eu-west-1' }] },
  secretDigests: { 'variables.db_password': 'sha256:' + 'a'.repeat(64) },
  extra: { moduleId: 'nocode-abc' },
  protect: false,
  updatedAt: '2026-01-01T00:00:00.000Z',
});
const RECORD_BYTES = JSON.stringify(rec('ws-0000')).length;
const names = (n: number) => Array.from({ length: n }, (_, i) => `ws-${String(i).padStart(4, '0')}`);
const open = (path: string, compactAtBytes?: number) =>
  openStateStore(createLocalBackend(path, compactAtBytes === undefined ? {} : { compactAtBytes }), { lock: true, operation: 'apply', lockTimeoutMs: 0 });

/** Bytes this process has written so far (Linux), or undefined elsewhere. */
function bytesWritten(): number | undefined {
  if (!existsSync('/proc/self/io')) return undefined;
  const m = /wchar: (\d+)/.exec(readFileSync('/proc/self/io', 'utf8'));
  return m ? Number(m[1]) : undefined;
}

describe('local state journal', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'converge-journal-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('state saves write O(1) bytes per change: an apply of N objects no longer rewrites the whole state N times', async () => {
    const path = join(dir, 'linear.json');
    const store = await open(path);
    const before = bytesWritten();
    for (const n of names(1000)) await store.put(rec(n));
    const after = bytesWritten();
    await store.close();
    expect((await createLocalBackend(path).read()).records).toHaveLength(1000);
    if (before === undefined || after === undefined) return;
    // One journal line per change (about one compact record), never the whole state: rewriting it would be
    // about 500 records per save on average here.
    expect((after - before) / 1000).toBeLessThan(3 * RECORD_BYTES);
  });

  it('a change is in the journal before the save returns; a reader replays file + journal; close folds it and removes the journal', async () => {
    const path = join(dir, 'replay.json');
    const store = await open(path);
    for (const n of names(5)) await store.put(rec(n));
    await store.remove({ kind: 'NoCodeWorkspace', name: 'ws-0001' });
    await store.setInFlight({ kind: 'NoCodeWorkspace', name: 'ws-0002' }, { purpose: 'upgrade', runId: 'run-1', phase: 'initiated', startedAt: 't' });
    const file = JSON.parse(await readFile(path, 'utf8')) as { serial: number };
    expect(file.serial).toBe(1); // the first change writes the file the journal belongs to
    expect((await readFile(`${path}.journal`, 'utf8')).trim().split('\n')).toHaveLength(1 + 6);
    const seen = await createLocalBackend(path).read();
    expect(seen.serial).toBe(7);
    expect(seen.records.map((r) => r.name)).toEqual(['ws-0000', 'ws-0002', 'ws-0003', 'ws-0004']);
    expect(seen.records[1]?.inFlight?.runId).toBe('run-1');
    expect(seen).toEqual(store.doc);
    await store.close();
    expect(await readdir(dir)).not.toContain('replay.json.journal');
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual(seen);
  });

  it('tolerates a torn last line (a kill mid-append): the change it held was never acknowledged', async () => {
    const path = join(dir, 'torn.json');
    const killed = await openStateStore(createLocalBackend(path), { lock: false, operation: 'apply', lockTimeoutMs: 0 });
    for (const n of names(3)) await killed.put(rec(n));
    await appendFile(`${path}.journal`, '{"serial":4,"put":{"kind":"NoCodeWork');
    const seen = await createLocalBackend(path).read();
    expect(seen.serial).toBe(3);
    expect(seen.records.map((r) => r.name)).toEqual(names(3));
  });

  it('a rerun after a torn line appends after the last whole line and replays everything', async () => {
    const path = join(dir, 'torn-rerun.json');
    const backend = createLocalBackend(path);
    const killed = await openStateStore(backend, { lock: false, operation: 'apply', lockTimeoutMs: 0 });
    for (const n of names(3)) await killed.put(rec(n));
    await appendFile(`${path}.journal`, '{"serial":4,"put":{"kind":"NoCo');
    // The killed run never closed; a new run reads file + journal, appends, and closes.
    const rerun = await open(path);
    expect(rerun.doc.serial).toBe(3);
    await rerun.put(rec('ws-0009'));
    expect((await readFile(`${path}.journal`, 'utf8')).endsWith('\n')).toBe(true);
    expect((await createLocalBackend(path).read()).records.map((r) => r.name)).toEqual(['ws-0000', 'ws-0001', 'ws-0002', 'ws-0009']);
    await rerun.close();
    expect((JSON.parse(await readFile(path, 'utf8')) as { serial: number }).serial).toBe(4);
  });

  it('tolerates a zero-filled tail (a power cut after the size grew but before the data landed)', async () => {
    const path = join(dir, 'zeros.json');
    const store = await openStateStore(createLocalBackend(path), { lock: false, operation: 'apply', lockTimeoutMs: 0 });
    for (const n of names(3)) await store.put(rec(n));
    await appendFile(`${path}.journal`, Buffer.alloc(300));
    expect((await createLocalBackend(path).read()).records).toHaveLength(3);
  });

  it('a bad line that is not the last is corruption, named with its line, never skipped', async () => {
    const path = join(dir, 'bad.json');
    const store = await openStateStore(createLocalBackend(path), { lock: false, operation: 'apply', lockTimeoutMs: 0 });
    for (const n of names(3)) await store.put(rec(n));
    const lines = (await readFile(`${path}.journal`, 'utf8')).split('\n');
    lines[1] = '{"serial": 2, "put": {"kind": "NoCodeWorkspace"';
    await writeFile(`${path}.journal`, lines.join('\n'));
    await expect(createLocalBackend(path).read()).rejects.toMatchObject({ code: 'state.corrupt', message: expect.stringContaining('line 2') });
  });

  it('a journal of another state (other salt) or without its state file is refused', async () => {
    const path = join(dir, 'other.json');
    const store = await openStateStore(createLocalBackend(path), { lock: false, operation: 'apply', lockTimeoutMs: 0 });
    for (const n of names(2)) await store.put(rec(n));
    const journal = await readFile(`${path}.journal`, 'utf8');
    await writeFile(`${path}.journal`, journal.replace(/"salt":"[0-9a-f]+"/, '"salt":"00"'));
    await expect(createLocalBackend(path).read()).rejects.toMatchObject({ code: 'state.corrupt', message: expect.stringContaining('another state') });
    await rm(path);
    await writeFile(`${path}.journal`, journal);
    await expect(createLocalBackend(path).read()).rejects.toMatchObject({ code: 'state.corrupt', message: expect.stringContaining('no state file') });
  });

  it('folds the journal into the file when it grows, and the result replays the same', async () => {
    const path = join(dir, 'grow.json');
    const store = await open(path, 4 * RECORD_BYTES);
    for (const n of names(50)) await store.put(rec(n));
    const onDisk = JSON.parse(await readFile(path, 'utf8')) as { serial: number };
    expect(onDisk.serial).toBeGreaterThan(40);
    expect((await createLocalBackend(path).read()).records).toHaveLength(50);
    await store.close();
  });

  it('an append after someone else wrote is a state.conflict, and nothing is lost', async () => {
    const path = join(dir, 'conflict.json');
    const a = await openStateStore(createLocalBackend(path), { lock: false, operation: 'apply', lockTimeoutMs: 0 });
    await a.put(rec('ws-0000'));
    await a.put(rec('ws-0001'));
    const b = await openStateStore(createLocalBackend(path), { lock: false, operation: 'apply', lockTimeoutMs: 0 });
    await b.put(rec('ws-0002'));
    await expect(a.put(rec('ws-0003'))).rejects.toMatchObject({ code: 'state.conflict' });
    expect((await createLocalBackend(path).read()).records.map((r) => r.name)).toEqual(['ws-0000', 'ws-0001', 'ws-0002']);
  });
});
