import { describe, expect, it } from 'vitest';
import type { ManualClock } from '../../src/async/manual-clock.js';
import { isConvergeError } from '../../src/diagnostics/errors.js';
import { openStateStore } from '../../src/state/state-store.js';
import type { LockInfo, StateBackend, StateDocument, StateRecord } from '../../src/state/types.js';

/*
 * The contract every StateBackend keeps (local file today, Nomad Variables next): run it with a
 * factory giving two backends over one fresh location, as two converge processes would see it.
 */

export interface ConformanceLocation {
  /** Two independent backends over the same, empty location. */
  a: StateBackend;
  b: StateBackend;
  /** The clock both backends wait on (lock polling): the tests run their waits on it. */
  clock: ManualClock;
  /**
   * Starts a separate process that takes the lock and exits without releasing it (a crash or kill).
   * Resolves with the lock it held.
   */
  crashHolder(): Promise<LockInfo>;
  /** `lease` backends: moves the service's clock past the dead holder's lease, so it clears. */
  outliveLease?(): Promise<void>;
  cleanup(): Promise<void>;
}

export interface ConformanceOptions {
  /**
   * How a dead holder's lock ends: `pid` — taken over at once, since a pid that no longer runs on this
   * host is provably dead (local file); `lease` — it expires by itself (Nomad Variables lock TTL).
   */
  deadHolder: 'pid' | 'lease';
  /** Lock wait used in contention tests. */
  waitMs?: number;
}

function record(name: string): StateRecord {
  return {
    kind: 'NomadAuthMethod',
    name,
    id: name,
    applied: { maxTokenTtl: '1h', claimMappings: { email: 'email' } },
    secretDigests: { 'config.oidcClientSecret': 'sha256:' + 'a'.repeat(64) },
    extra: { hash: 'abc' },
    protect: false,
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
}

async function rejection(p: Promise<unknown>): Promise<{ code: string; message: string; hint?: string }> {
  try {
    await p;
  } catch (e) {
    if (isConvergeError(e)) return { code: e.code, message: e.message, ...(e.hint !== undefined ? { hint: e.hint } : {}) };
    throw e;
  }
  throw new Error('expected a rejection');
}

export function runBackendConformance(name: string, open: () => Promise<ConformanceLocation>, opts: ConformanceOptions): void {
  const waitMs = opts.waitMs ?? 300;
  const withLocation = (fn: (loc: ConformanceLocation) => Promise<void>) => async () => {
    const loc = await open();
    try {
      await fn(loc);
    } finally {
      await loc.cleanup();
    }
  };

  describe(`StateBackend conformance: ${name}`, () => {
    it(
      'reads an empty state where nothing was written (serial 0, a salt, no records)',
      withLocation(async ({ a }) => {
        const doc = await a.read();
        expect(doc).toMatchObject({ version: 1, serial: 0, records: [] });
        expect(doc.salt).toMatch(/^[0-9a-f]{32}$/);
      }),
    );

    it(
      'round-trips a document exactly, across backends',
      withLocation(async ({ a, b }) => {
        const base = await a.read();
        const doc: StateDocument = { ...base, serial: 1, records: [record('okta'), record('gh')] };
        await a.write(doc);
        expect(await b.read()).toEqual(doc);
        const next: StateDocument = { ...doc, serial: 2, records: [record('gh')] };
        await b.write(next);
        expect(await a.read()).toEqual(next);
      }),
    );

    it(
      'keeps the mark of a create sent without a record across readers until its record is made or it is cleared',
      withLocation(async ({ a, b }) => {
        const store = await openStateStore(a, { lock: true, operation: 'apply', lockTimeoutMs: 0 });
        const at = new Date('2026-01-01T00:00:00.000Z');
        await store.markSent({ kind: 'NomadAuthMethod', name: 'okta' }, at);
        await store.markSent({ kind: 'NomadAuthMethod', name: 'gh' }, at);
        // What a killed run leaves: the marks, no record.
        expect(await b.read()).toMatchObject({ serial: 2, records: [], sent: [{ kind: 'NomadAuthMethod', name: 'okta', at: at.toISOString() }, { kind: 'NomadAuthMethod', name: 'gh' }] });
        await store.put(record('okta'));
        await store.clearSent({ kind: 'NomadAuthMethod', name: 'gh' });
        await store.clearSent({ kind: 'NomadAuthMethod', name: 'gh' });
        const doc = await b.read();
        expect(doc).toMatchObject({ serial: 4, records: [record('okta')] });
        expect(doc.sent).toBeUndefined();
        await store.markSent({ kind: 'NomadAuthMethod', name: 'gh' }, at);
        await store.close();
        // Folded into one document at close, the mark is still there.
        expect((await b.read()).sent).toEqual([{ kind: 'NomadAuthMethod', name: 'gh', at: at.toISOString() }]);
      }),
    );

    it(
      'refuses a write based on a stale read (state.conflict), keeping the winner',
      withLocation(async ({ a, b }) => {
        const docA = await a.read();
        const docB = await b.read();
        const winner = { ...docA, serial: docA.serial + 1, records: [record('a')] };
        await a.write(winner);
        const err = await rejection(b.write({ ...docB, serial: docB.serial + 1, records: [record('b')] }));
        expect(err.code).toBe('state.conflict');
        expect(await b.read()).toEqual(winner);
      }),
    );

    it(
      'lock contention: a second lock waits, then fails naming the holder',
      withLocation(async ({ a, b, clock }) => {
        const held = await a.lock('apply', { timeoutMs: 0 });
        const started = clock.now();
        const err = await clock.run(rejection(b.lock('plan', { timeoutMs: waitMs })));
        // It waited its whole timeout, on the backends' clock.
        expect(clock.now() - started).toBe(waitMs);
        expect(err.code).toBe('state.locked');
        expect(err.message).toContain(held.info.owner);
        expect(err.message).toContain(String(held.info.pid));
        expect(err.message).toContain('apply');
        expect(err.message).toContain(held.info.id);
        expect(err.hint).toContain(`converge state unlock ${held.info.id}`);
        await held.release();
        const next = await b.lock('plan', { timeoutMs: 0 });
        await next.release();
      }),
    );

    it(
      'a waiting lock gets the lock once the holder releases it',
      withLocation(async ({ a, b, clock }) => {
        const held = await a.lock('apply', { timeoutMs: 0 });
        clock.setTimeout(() => void held.release(), 100);
        const got = await clock.run(b.lock('apply', { timeoutMs: 5000 }));
        expect(got.info.id).not.toBe(held.info.id);
        await got.release();
      }),
    );

    it(
      'force-unlock needs the lock id; releasing a lock taken over since removes nothing',
      withLocation(async ({ a, b }) => {
        const held = await a.lock('apply', { timeoutMs: 0 });
        const wrong = await rejection(b.forceUnlock('not-the-id'));
        expect(wrong.code).not.toBe('');
        await b.forceUnlock(held.info.id);
        const taken = await b.lock('apply', { timeoutMs: 0 });
        await held.release(); // the old holder finishing late must not free the new lock
        const err = await rejection(a.lock('apply', { timeoutMs: 0 }));
        expect(err.code).toBe('state.locked');
        await taken.release();
        const again = await a.lock('apply', { timeoutMs: 0 });
        await again.release();
      }),
    );

    it(
      'a holder that dies without unlocking (crash between write and unlock) is detected',
      withLocation(async ({ a, crashHolder, outliveLease }) => {
        const dead = await crashHolder();
        if (opts.deadHolder === 'lease') {
          expect((await rejection(a.lock('apply', { timeoutMs: 0 }))).code).toBe('state.locked');
          await outliveLease?.();
        }
        const got = await a.lock('apply', { timeoutMs: opts.deadHolder === 'lease' && !outliveLease ? 60_000 : 0 });
        if (opts.deadHolder === 'pid') {
          expect(got.replaced?.id).toBe(dead.id);
          expect(got.replaced?.pid).toBe(dead.pid);
        }
        await got.release();
      }),
    );
  });
}
