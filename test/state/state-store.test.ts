import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalBackend } from '../../src/state/local-backend.js';
import { emptyState, openStateStore } from '../../src/state/state-store.js';
import type { StateRecord } from '../../src/state/types.js';

const rec = (name: string, kind: StateRecord['kind'] = 'NomadAuthMethod'): StateRecord => ({
  kind,
  name,
  id: `id-${name}`,
  applied: {},
  secretDigests: {},
  extra: {},
  protect: false,
  updatedAt: '2026-01-01T00:00:00.000Z',
});

describe('StateStore over the local backend', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'converge-store-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('emptyState has a random 16-byte hex salt', () => {
    const a = emptyState();
    expect(a.salt).toMatch(/^[0-9a-f]{32}$/);
    expect(emptyState().salt).not.toBe(a.salt);
  });

  it('persists every mutation immediately with serial + 1, records sorted by kind then name', async () => {
    const path = join(dir, 's1.json');
    const store = await openStateStore(createLocalBackend(path), { lock: true, operation: 'apply', lockTimeoutMs: 0 });
    await store.put(rec('b', 'NoCodeModule'));
    await store.put(rec('z'));
    await store.put(rec('a'));
    // What another process (a rerun after a kill) reads: the state file plus its journal.
    let onDisk = await createLocalBackend(path).read();
    expect(onDisk.serial).toBe(3);
    expect(onDisk.records.map((r) => r.name)).toEqual(['a', 'z', 'b']);
    await store.setInFlight({ kind: 'NomadAuthMethod', name: 'a' }, { purpose: 'upgrade', runId: 'run-1', phase: 'initiated', startedAt: 't' });
    onDisk = await createLocalBackend(path).read();
    expect(onDisk.records[0]?.inFlight?.runId).toBe('run-1');
    await store.setInFlight({ kind: 'NomadAuthMethod', name: 'a' }, undefined);
    expect(store.get({ kind: 'NomadAuthMethod', name: 'a' })).not.toHaveProperty('inFlight');
    await store.remove({ kind: 'NomadAuthMethod', name: 'z' });
    expect(store.doc.serial).toBe(6);
    expect(store.records().map((r) => r.name)).toEqual(['a', 'b']);
    await store.close();
    expect((await createLocalBackend(path).read()).serial).toBe(6);
  });

  it('serialises concurrent saves (parallel upgrades): none is lost, no conflict', async () => {
    const path = join(dir, 's2.json');
    const store = await openStateStore(createLocalBackend(path), { lock: true, operation: 'apply', lockTimeoutMs: 0 });
    await Promise.all(Array.from({ length: 12 }, (_, i) => store.put(rec(`m${String(i).padStart(2, '0')}`))));
    await store.close();
    const doc = await createLocalBackend(path).read();
    expect(doc.serial).toBe(12);
    expect(doc.records).toHaveLength(12);
  });

  it('takes the lock before reading and releases it on close', async () => {
    const path = join(dir, 's3.json');
    const store = await openStateStore(createLocalBackend(path), { lock: true, operation: 'apply', lockTimeoutMs: 0 });
    await expect(openStateStore(createLocalBackend(path), { lock: true, operation: 'state rm', lockTimeoutMs: 0 })).rejects.toMatchObject({ code: 'state.locked' });
    await store.close();
    await store.close(); // idempotent
    const again = await openStateStore(createLocalBackend(path), { lock: true, operation: 'apply', lockTimeoutMs: 0 });
    await again.close();
  });

  it('an in-flight run for an address not in state is a bug, said so', async () => {
    const store = await openStateStore(createLocalBackend(join(dir, 's4.json')), { lock: false, operation: 'apply', lockTimeoutMs: 0 });
    await expect(store.setInFlight({ kind: 'NoCodeWorkspace', name: 'x' }, undefined)).rejects.toMatchObject({ code: 'state.no-record', source: 'internal' });
    await store.put(rec('ok'));
    expect(store.doc.serial).toBe(1);
    await store.close();
  });
});
