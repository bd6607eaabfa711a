import type { Clock } from '../../async/clock.js';
import { randomBytes } from 'node:crypto';
import { ConvergeError } from '../../diagnostics/errors.js';
import { createHttpClient } from '../../http/client.js';
import { NOMAD_SERVICE } from '../../providers/nomad/identity.js';
import type { HttpLimits } from '../../http/limits.js';
import type { HttpClient, TlsOptions } from '../../http/types.js';
import { silentReporter, type Reporter } from '../../model/events.js';
import { parseStateDocument } from '../local-backend.js';
import { emptyState } from '../state-store.js';
import type { StateBackend, StateDocument, StateLock } from '../types.js';
import { decodeState, encodeState } from './chunking.js';
import { deleteGeneration, deleteJournalEntry, sweepAfterCommit } from './cleanup.js';
import { headItems, parseHead, type Head, type JournalRef, type SnapshotRef } from './head.js';
import { chainLink, entryItems, entryText, MAX_ENTRY_BYTES, readJournalEntries, replayEntries } from './journal.js';
import { acquireNomadLock, defaultHolder, forceUnlockNomad, lockLostError, validateLockTtl, type HeldNomadLock, type LockHolder, type NomadLockOptions } from './lock.js';
import { chunkPath, chunkPrefix, defaultLockPath, journalEntryPath, validateStatePath } from './paths.js';
import { createVariablesClient } from './variables-client.js';

/*
 * State in Nomad Variables. Commit protocol (README.md in this folder):
 *   1. a whole-state write puts up a new generation of chunks `<path>/chunk-<generation>-<n>`; a save of
 *      one change puts up one journal entry `<path>/journal-<id>` (journal.ts). Both are new variables:
 *      nothing the committed head points to is touched;
 *   2. write the head `<path>` LAST with `?cas=<ModifyIndex seen at read>`: the single atomic step, for
 *      every save. A 409 means someone else committed since our read → `state.conflict`;
 *   3. after a whole-state write, delete chunks and entries no head can ever point to again (best effort).
 * A reader reads the head, its chunks and its journal entries, and checks the hashes: it never sees a
 * torn state; a variable deleted under it (a newer commit) makes it read the head again.
 */

export interface NomadVariablesBackendOptions {
  /** Nomad address, e.g. https://nomad.example.com:4646. */
  address: string;
  token: string;
  /** Head variable path, e.g. `converge/state`. No `.` (§9). */
  path: string;
  namespace?: string;
  tls?: TlsOptions;
  /** Response size cap, deadline and retry budget (http/limits.ts); defaults when absent. */
  limits?: HttpLimits;
  /** Reuse an HTTP client (tests, or the CLI's shared one). The token is sent per request anyway. */
  http?: HttpClient;
  reporter?: Reporter;
  /** Lease of the state lock, a Go duration from 10s to 24h. Default 30s, renewed every TTL/3; lost when no renewal succeeds within the TTL. */
  lockTtl?: string;
  /** How long Nomad keeps an expired lock before clearing it. Nomad's default (15s) when unset. */
  lockDelay?: string;
  /** Lock variable. Default `<path>-lock`. Never the data variable: lock-acquire replaces Items (§9). */
  lockPath?: string;
  /** Interval between lock attempts while waiting. Default 1000 ms. */
  lockPollMs?: number;
  /** Who to record as the lock holder. Default: this user, host and pid. */
  holder?: LockHolder;
  /** Lock polling, lease renewals and the lease deadline (tests pass a ManualClock). Default: the real clock. */
  clock?: Clock;
  /** Journal characters past which a save folds it into the chunks. Default: 64 KiB or the snapshot's size, whichever is larger. */
  foldAtChars?: number;
}

export interface NomadVariablesBackend extends StateBackend {
  /** Closes the HTTP client when this backend created it. */
  close(): Promise<void>;
}

const READ_ATTEMPTS = 5;
/**
 * Journals smaller than this are never folded early: a fold rewrites every chunk, so folding a small state
 * often would cost more than it saves, and a reader fetches at most this much journal beside the snapshot.
 */
const MIN_FOLD_CHARS = 64 * 1024;
/** Tries at the fence write when other writers keep moving the head (only a lock-less writer can). */
const FENCE_ATTEMPTS = 5;

/** A fresh id in every head write, so a read-back can tell our own write from anyone else's. */
const newWriteId = () => randomBytes(8).toString('hex');

export function createNomadVariablesBackend(opts: NomadVariablesBackendOptions): NomadVariablesBackend {
  validateStatePath(opts.path);
  const lockPath = opts.lockPath ?? defaultLockPath(opts.path);
  if (opts.lockPath !== undefined) validateStatePath(opts.lockPath, 'lock path');
  if (lockPath === opts.path || lockPath.startsWith(chunkPrefix(opts.path))) {
    throw new ConvergeError('state.nomad.bad-path', `The lock path "${lockPath}" must differ from the state variables`, {
      source: 'user',
      hint: 'lock-acquire replaces the variable\'s items, so the lock needs its own path, e.g. converge/state-lock',
    });
  }
  const lockTtl = opts.lockTtl ?? '30s';
  validateLockTtl(lockTtl);
  const namespace = opts.namespace ?? 'default';
  if (namespace === '*') {
    throw new ConvergeError('state.nomad.bad-namespace', 'The state namespace cannot be "*"', { source: 'user', hint: 'name one namespace, e.g. default' });
  }
  const ownsHttp = opts.http === undefined;
  const http =
    opts.http ??
    createHttpClient({
      baseUrl: opts.address,
      ...(opts.tls ? { tls: opts.tls } : {}),
      ...(opts.limits ? { limits: opts.limits } : {}),
      ...(opts.reporter ? { reporter: opts.reporter } : {}),
      // Another server or service at the address is an error, never "no state yet" (its 404 read as a missing variable).
      service: NOMAD_SERVICE,
    });
  const vars = createVariablesClient({ http, token: opts.token, namespace });
  const reporter = opts.reporter ?? silentReporter;
  const description = `Nomad Variables ${opts.path} (namespace ${namespace})`;
  const lockOpts: NomadLockOptions = {
    vars,
    lockPath,
    ttl: lockTtl,
    ...(opts.lockDelay !== undefined ? { lockDelay: opts.lockDelay } : {}),
    pollIntervalMs: opts.lockPollMs ?? 1000,
    reporter,
    holder: opts.holder ?? defaultHolder(),
    description,
    ...(opts.clock ? { clock: opts.clock } : {}),
  };

  /** ModifyIndex of the head at our last read or write (0 = no head yet): the CAS base for every write. */
  let baseIndex: number | undefined;
  /** Serial at our last read or write: like the local backend, a write must move it forward. */
  let baseSerial = 0;
  /** The snapshot the head pointed to at our last read or write (undefined: no head yet). */
  let snapshot: SnapshotRef | undefined;
  /** Its base64 characters: the journal is folded once its entries outgrow it. */
  let snapshotChars = 0;
  /** The journal after that snapshot (undefined: none). */
  let journal: JournalRef | undefined;
  /** Set when the head holds a write of ours that this process no longer mirrors: the next save rewrites the whole state. */
  let mustFold = false;
  let heldLock: HeldNomadLock | undefined;
  /** writeId of a head write that failed without an answer: it may have landed (see settlePending). */
  let pending: string | undefined;

  async function readHead(): Promise<Head | undefined> {
    const v = await vars.get(opts.path);
    if (!v) return undefined;
    return parseHead(v.Items ?? {}, v.ModifyIndex, description);
  }

  /** What a read or commit saw becomes the base of the next write. */
  function remember(head: { index: number; serial: number; snapshot: SnapshotRef | undefined; journal: JournalRef | undefined }, chars: number): void {
    baseIndex = head.index;
    baseSerial = head.serial;
    snapshot = head.snapshot;
    journal = head.journal;
    snapshotChars = chars;
    mustFold = false;
  }

  /**
   * A head write that failed after every retry may still have landed. If the head is that write, it
   * is ours: move our CAS base to it, or every later write of this run would conflict with itself. The
   * store took that change back in memory, so the next save rewrites the whole state (`mustFold`).
   */
  async function settlePending(): Promise<void> {
    if (pending === undefined) return;
    const head = await readHead();
    if (head !== undefined && head.writeId === pending) {
      baseIndex = head.index;
      mustFold = true;
    }
    pending = undefined;
  }

  /** Refuses to write once the lock is lost: another run may hold it and be writing. */
  function assertLockHeld(): void {
    if (heldLock?.lost) {
      const why: unknown = heldLock.lostSignal.reason;
      throw why instanceof ConvergeError ? why : lockLostError(description, 'the lease ended');
    }
  }

  /**
   * The commit point of every save: the head, with CAS on the index we last saw. On a rejection,
   * `discard` removes what this save put up before it (its chunks or its journal entry).
   */
  async function commitHead(items: Record<string, string>, writeId: string, discard: () => Promise<void>): Promise<number> {
    // The lease may have run out while the chunks or the entry went up.
    assertLockHeld();
    const expected = baseIndex ?? 0;
    let r;
    try {
      // Retried after a lost reply only when a read-back does not find this very write as the head.
      r = await vars.put(opts.path, items, { cas: expected, isOurs: (v) => v.Items?.writeId === writeId });
    } catch (e) {
      pending = writeId;
      throw e;
    }
    if (r.ok) return r.variable.ModifyIndex;
    // A repeat that lands on our own committed write gets 409 showing it: done.
    if (r.current.Items?.writeId === writeId) return r.current.ModifyIndex;
    await discard();
    const taker = r.current.Items?.lockId;
    const lock = heldLock;
    if (lock && taker !== undefined && taker !== lock.info.id) {
      // Another run took the lock and fenced the head: our lease ended without us knowing.
      throw lockLostError(description, `another run (lock ${taker}) holds it now and has written the state`);
    }
    throw new ConvergeError(
      'state.conflict',
      `The state in ${description} was changed by someone else since this run read it (expected version ${expected}, found ${r.current.ModifyIndex})`,
      { source: 'user', status: 409, hint: 'another converge run wrote the state meanwhile; run plan again to see the current state' },
    );
  }

  /** The whole state as a new generation of chunks, then a v1 head (no journal), then the sweep. */
  async function commitSnapshot(doc: StateDocument): Promise<void> {
    const generation = `${baseIndex ?? 0}-${randomBytes(4).toString('hex')}`;
    const encoded = encodeState(JSON.stringify(doc));
    // 1. New-generation chunks, sequentially (bounded remote calls).
    for (let n = 0; n < encoded.chunks.length; n++) {
      const r = await vars.put(chunkPath(opts.path, generation, n), { data: encoded.chunks[n] ?? '' });
      if (!r.ok) throw new ConvergeError('state.nomad.chunk-conflict', `Could not write chunk ${n} of the state in ${description}`, { source: 'internal' });
    }
    // 2. The head, last, with CAS.
    const ref: SnapshotRef = { generation, chunks: encoded.chunks.length, sha256: encoded.sha256, bytes: encoded.bytes };
    const items = headItems(doc.serial, ref, undefined, generation, heldLock?.info.id);
    const index = await commitHead(items, generation, () => deleteGeneration(vars, opts.path, generation, encoded.chunks.length, reporter));
    remember({ index, serial: doc.serial, snapshot: ref, journal: undefined }, encoded.chunks.reduce((sum, c) => sum + c.length, 0));
    // 3. Cleanup after the commit; failures leave garbage, never a wrong state.
    await sweepAfterCommit(vars, opts.path, generation, index, reporter);
  }

  /**
   * The fence: right after taking the lock, rewrite the head (same state, our lock id, CAS). Its
   * ModifyIndex moves, so a previous holder that lost the lock but still believes it holds it fails
   * its next CAS write for certain, instead of only when our first write happens to come first.
   * Without a head there is nothing to fence: the first write creates it with cas=0.
   */
  async function fence(lockId: string): Promise<void> {
    for (let attempt = 1; attempt <= FENCE_ATTEMPTS; attempt++) {
      const current = await vars.get(opts.path);
      if (!current) return;
      const head = parseHead(current.Items ?? {}, current.ModifyIndex, description);
      const writeId = newWriteId();
      const r = await vars.put(opts.path, { ...current.Items, lockId, writeId }, { cas: head.index, isOurs: (v) => v.Items?.writeId === writeId });
      if (r.ok) {
        // Our own earlier read stays valid: the fence changed no content (the journal keys are kept).
        if (baseIndex === head.index) baseIndex = r.variable.ModifyIndex;
        return;
      }
    }
    throw new ConvergeError('state.nomad.unstable', `The state in ${description} kept changing right after converge took its lock`, {
      source: 'remote',
      retryable: true,
      hint: 'a process that does not use the state lock is writing the state; stop it, then run again',
    });
  }

  return {
    description,

    async read() {
      /** Index of a head whose chunks or entries were found missing: missing again under the same head is no race. */
      let missingUnder: number | undefined;
      for (let attempt = 1; attempt <= READ_ATTEMPTS; attempt++) {
        const head = await readHead();
        if (!head) {
          remember({ index: 0, serial: 0, snapshot: undefined, journal: undefined }, 0);
          return emptyState();
        }
        const parts: string[] = [];
        // Sequential: a state has few chunks, and the contract forbids unbounded parallel remote calls.
        for (let n = 0; n < head.snapshot.chunks; n++) {
          const c = await vars.get(chunkPath(opts.path, head.snapshot.generation, n));
          if (!c) break;
          parts.push(c.Items?.data ?? '');
        }
        const entries = parts.length < head.snapshot.chunks ? undefined : await readJournalEntries(vars, opts.path, head, description);
        if (entries === undefined) {
          // Only a newer commit's sweep removes what a head names, so the same head twice means someone deleted it.
          if (missingUnder === head.index) {
            throw new ConvergeError('state.corrupt', `The state in ${description} is unreadable: its head names a chunk or journal entry that does not exist`, {
              source: 'remote',
              hint: 'someone may have deleted variables under the state path by hand; restore them from a backup (nomad var get/put)',
            });
          }
          missingUnder = head.index;
          // A newer commit cleaned this generation between our head and chunk reads: read again.
          reporter.emit({ code: 'state.read.retry', level: 'debug', message: `The state in ${description} changed while reading; reading it again`, data: { attempt } });
          continue;
        }
        // One definition of a valid state document for every backend (records checked too).
        const base = parseStateDocument(decodeState(parts, head.snapshot.sha256, description), description);
        const doc = replayEntries(base, entries, head.serial, description);
        remember({ ...head, serial: doc.serial }, parts.reduce((sum, p) => sum + p.length, 0));
        return doc;
      }
      throw new ConvergeError('state.nomad.unstable', `The state in ${description} kept changing while converge read it`, {
        source: 'remote',
        retryable: true,
        hint: 'another process is writing it in a loop; try again, and use the state lock for writers',
      });
    },

    async write(doc) {
      assertLockHeld();
      await settlePending();
      // A write without a prior read is checked against the current head, like the local backend.
      if (baseIndex === undefined) {
        const current = await readHead();
        remember(current ?? { index: 0, serial: 0, snapshot: undefined, journal: undefined }, 0);
      }
      if (doc.serial <= baseSerial) {
        throw new ConvergeError('state.conflict', `Refusing to write serial ${doc.serial} over serial ${baseSerial} of the state in ${description}`, {
          source: 'internal',
          hint: 'each write must increase the serial; this is a bug in the caller',
        });
      }
      await commitSnapshot(doc);
    },

    async append(serial, change, current) {
      assertLockHeld();
      await settlePending();
      if (baseIndex === undefined) throw new ConvergeError('state.not-read', 'the state was appended to before it was read', { source: 'internal' });
      if (serial !== baseSerial + 1) {
        throw new ConvergeError('state.conflict', `Refusing to append serial ${serial} after serial ${baseSerial} of the state in ${description}`, {
          source: 'internal',
          hint: 'each change must follow the last one saved; this is a bug in the caller',
        });
      }
      const text = entryText(serial, change);
      // No head to hang a journal on yet, an entry too big for one variable, or a lost reply that landed
      // (the head holds a change this process took back): the whole state instead.
      if (snapshot === undefined || mustFold || Buffer.byteLength(text) > MAX_ENTRY_BYTES) return commitSnapshot(current());
      const base = snapshot;
      const id = `${baseIndex}-${randomBytes(4).toString('hex')}`;
      const prev = journal?.last ?? '';
      // Create-only (cas=0): an entry, once written, is never replaced, by us or by anyone else.
      const put = await vars.put(journalEntryPath(opts.path, id), entryItems(text, prev), { cas: 0, isOurs: (v) => v.Items?.entry === text && v.Items.prev === prev });
      if (!put.ok) throw new ConvergeError('state.nomad.entry-conflict', `The state journal entry ${id} in ${description} already exists`, { source: 'internal' });
      const next: JournalRef = {
        count: (journal?.count ?? 0) + 1,
        last: id,
        sha256: chainLink(journal?.sha256 ?? base.sha256, text),
        bytes: (journal?.bytes ?? 0) + text.length,
      };
      const index = await commitHead(headItems(serial, base, next, id, heldLock?.info.id), id, () => deleteJournalEntry(vars, opts.path, id, reporter));
      remember({ index, serial, snapshot: base, journal: next }, snapshotChars);
      // Folding once the entries outgrow the snapshot keeps both the reader's work and the bytes written per
      // save O(1). The change is already committed: a fold that fails is tried again at the next save and at close.
      if (next.bytes > Math.max(opts.foldAtChars ?? MIN_FOLD_CHARS, snapshotChars)) {
        await commitSnapshot(current()).catch((e: unknown) => {
          reporter.emit({ code: 'state.fold-deferred', level: 'debug', message: `Could not fold the state journal in ${description} yet: ${(e as Error).message}`, data: { error: (e as Error).message } });
        });
      }
    },

    async compact(doc) {
      if (journal === undefined && !mustFold) return;
      assertLockHeld();
      if (doc.serial !== baseSerial) {
        throw new ConvergeError('state.conflict', `Refusing to fold serial ${doc.serial} over serial ${baseSerial} of the state in ${description}`, { source: 'internal' });
      }
      await commitSnapshot(doc);
    },

    async lock(operation, { timeoutMs }) {
      const lock = await acquireNomadLock(lockOpts, operation, timeoutMs);
      try {
        await fence(lock.info.id);
      } catch (e) {
        await lock.release().catch(() => undefined);
        throw e;
      }
      heldLock = lock;
      const wrapped: StateLock = {
        info: lock.info,
        lostSignal: lock.lostSignal,
        ...(lock.leftBehind !== undefined ? { leftBehind: lock.leftBehind } : {}),
        release: async () => {
          if (heldLock === lock) heldLock = undefined;
          await lock.release();
        },
      };
      return wrapped;
    },

    async forceUnlock(id) {
      await forceUnlockNomad(lockOpts, id);
    },

    async close() {
      if (heldLock) {
        const l = heldLock;
        heldLock = undefined;
        await l.release();
      }
      if (ownsHttp) await http.close();
    },
  };
}
