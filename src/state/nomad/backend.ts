import { randomBytes } from 'node:crypto';
import { ConvergeError } from '../../diagnostics/errors.js';
import { createHttpClient } from '../../http/client.js';
import type { HttpClient, TlsOptions } from '../../http/types.js';
import { silentReporter, type Reporter } from '../../model/events.js';
import { parseStateDocument } from '../local-backend.js';
import { emptyState } from '../state-store.js';
import type { StateBackend, StateLock } from '../types.js';
import { decodeState, encodeState, ENCODING } from './chunking.js';
import { acquireNomadLock, defaultHolder, forceUnlockNomad, lockLostError, validateLockTtl, type HeldNomadLock, type LockHolder, type NomadLockOptions } from './lock.js';
import { chunkPath, chunkPrefix, defaultLockPath, parseChunkPath, validateStatePath } from './paths.js';
import { createVariablesClient, type VariablesClient } from './variables-client.js';

/*
 * State in Nomad Variables. Commit protocol (README.md in this folder):
 *   1. write the new generation's chunks `<path>/chunk-<generation>-<n>` (new variables: nothing the
 *      committed head points to is touched);
 *   2. write the head `<path>` LAST with `?cas=<ModifyIndex seen at read>`: the single atomic step.
 *      A 409 means someone else committed since our read → `state.conflict`;
 *   3. delete chunks no head can ever point to again (best effort).
 * A reader reads the head, then its chunks, and checks the sha256: it never sees a torn state; a
 * chunk deleted under it (a newer commit) makes it read the head again.
 */

export interface NomadVariablesBackendOptions {
  /** Nomad address, e.g. https://nomad.example.com:4646. */
  address: string;
  token: string;
  /** Head variable path, e.g. `converge/state`. No `.` (§9). */
  path: string;
  namespace?: string;
  tls?: TlsOptions;
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
}

export interface NomadVariablesBackend extends StateBackend {
  /** Closes the HTTP client when this backend created it. */
  close(): Promise<void>;
}

/** Head variable keys. Items are string→string (§9). */
const HEAD_FORMAT = 'converge-state-v1';

interface Head {
  index: number;
  serial: number;
  generation: string;
  chunks: number;
  sha256: string;
}

const READ_ATTEMPTS = 5;
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
      ...(opts.reporter ? { reporter: opts.reporter } : {}),
      // A web page at the address is another server, never "no state yet" (a 404 page read as a missing variable).
      service: { name: 'Nomad', addressSetting: 'NOMAD_ADDR' },
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
  };

  /** ModifyIndex of the head at our last read or write (0 = no head yet): the CAS base for write. */
  let baseIndex: number | undefined;
  /** Serial at our last read or write: like the local backend, a write must move it forward. */
  let baseSerial = 0;
  let heldLock: HeldNomadLock | undefined;
  /** Generation of a head write that failed without an answer: it may have landed (see settlePending). */
  let pending: string | undefined;

  async function readHead(): Promise<Head | undefined> {
    const v = await vars.get(opts.path);
    if (!v) return undefined;
    return parseHead(v.Items ?? {}, v.ModifyIndex, description);
  }

  /**
   * A head write that failed after every retry may still have landed. If the head is that write, it
   * is ours: move our CAS base to it, or every later write of this run would conflict with itself.
   */
  async function settlePending(): Promise<void> {
    if (pending === undefined) return;
    const head = await readHead();
    if (head?.generation === pending) baseIndex = head.index;
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
        // Our own earlier read stays valid: the fence changed no content.
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
      for (let attempt = 1; attempt <= READ_ATTEMPTS; attempt++) {
        const head = await readHead();
        if (!head) {
          baseIndex = 0;
          baseSerial = 0;
          return emptyState();
        }
        const parts: string[] = [];
        // Sequential: a state has few chunks, and the contract forbids unbounded parallel remote calls.
        for (let n = 0; n < head.chunks; n++) {
          const c = await vars.get(chunkPath(opts.path, head.generation, n));
          if (!c) break;
          parts.push(c.Items?.data ?? '');
        }
        if (parts.length < head.chunks) {
          // A newer commit cleaned this generation between our head and chunk reads: read again.
          reporter.emit({ code: 'state.read.retry', level: 'debug', message: `The state in ${description} changed while reading; reading it again`, data: { attempt } });
          continue;
        }
        // One definition of a valid state document for every backend (records checked too).
        const doc = parseStateDocument(decodeState(parts, head.sha256, description), description);
        baseIndex = head.index;
        baseSerial = doc.serial;
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
        baseIndex = current?.index ?? 0;
        baseSerial = current?.serial ?? 0;
      }
      const expected = baseIndex;
      if (doc.serial <= baseSerial) {
        throw new ConvergeError('state.conflict', `Refusing to write serial ${doc.serial} over serial ${baseSerial} of the state in ${description}`, {
          source: 'internal',
          hint: 'each write must increase the serial; this is a bug in the caller',
        });
      }
      const generation = `${expected}-${randomBytes(4).toString('hex')}`;
      const encoded = encodeState(JSON.stringify(doc));
      // 1. New-generation chunks, sequentially (bounded remote calls).
      for (let n = 0; n < encoded.chunks.length; n++) {
        const r = await vars.put(chunkPath(opts.path, generation, n), { data: encoded.chunks[n] ?? '' });
        if (!r.ok) throw new ConvergeError('state.nomad.chunk-conflict', `Could not write chunk ${n} of the state in ${description}`, { source: 'internal' });
      }
      // 2. The head, last, with CAS: the commit point.
      const lock = heldLock;
      const headItems: Record<string, string> = {
        format: HEAD_FORMAT,
        serial: String(doc.serial),
        generation,
        chunks: String(encoded.chunks.length),
        sha256: encoded.sha256,
        encoding: ENCODING,
        bytes: String(encoded.bytes),
        writeId: generation,
        ...(lock ? { lockId: lock.info.id } : {}),
      };
      // The lease may have run out while the chunks went up.
      assertLockHeld();
      let r;
      try {
        // Retried after a lost reply only when a read-back does not find this very generation as the head.
        r = await vars.put(opts.path, headItems, { cas: expected, isOurs: (v) => v.Items?.generation === generation });
      } catch (e) {
        pending = generation;
        throw e;
      }
      if (!r.ok) {
        // A repeat that lands on our own committed write gets 409 showing our generation: done.
        if (r.current.Items?.generation !== generation) {
          await deleteGeneration(vars, opts.path, generation, encoded.chunks.length, reporter);
          const taker = r.current.Items?.lockId;
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
        baseIndex = r.current.ModifyIndex;
      } else {
        baseIndex = r.variable.ModifyIndex;
      }
      baseSerial = doc.serial;
      // 3. Cleanup after the commit; failures leave garbage, never a wrong state.
      await sweepChunks(vars, opts.path, generation, baseIndex, reporter);
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

function parseHead(items: Record<string, string>, index: number, where: string): Head {
  const chunks = Number(items.chunks);
  const serial = Number(items.serial);
  if (items.format !== HEAD_FORMAT || items.encoding !== ENCODING || !Number.isInteger(chunks) || chunks < 1 || !items.generation || !items.sha256) {
    throw new ConvergeError('state.corrupt', `The head variable of ${where} is not a converge state head (format ${items.format ?? 'missing'})`, {
      source: 'user',
      hint: 'the path holds some other variable; choose another state path, or remove that variable if it is leftover',
    });
  }
  return { index, serial, generation: items.generation, chunks, sha256: items.sha256 };
}

async function deleteGeneration(vars: VariablesClient, path: string, generation: string, count: number, reporter: Reporter): Promise<void> {
  for (let n = 0; n < count; n++) {
    try {
      await vars.delete(chunkPath(path, generation, n));
    } catch (e) {
      cleanupFailed(reporter, chunkPath(path, generation, n), e);
    }
  }
}

/**
 * Deletes chunks that no head can point to again: any generation other than the committed one
 * whose writer expected a head index below the committed head's (its CAS is bound to fail, since
 * ModifyIndex only grows). Chunks of a writer racing against this very head are left to that writer.
 */
async function sweepChunks(vars: VariablesClient, path: string, committed: string, headIndex: number, reporter: Reporter): Promise<void> {
  let listed;
  try {
    listed = await vars.list(chunkPrefix(path));
  } catch (e) {
    cleanupFailed(reporter, chunkPrefix(path), e);
    return;
  }
  for (const meta of listed) {
    const c = parseChunkPath(path, meta.Path);
    if (!c || c.generation === committed || c.baseIndex >= headIndex) continue;
    try {
      await vars.delete(meta.Path);
    } catch (e) {
      cleanupFailed(reporter, meta.Path, e);
    }
  }
}

function cleanupFailed(reporter: Reporter, path: string, e: unknown): void {
  reporter.emit({
    code: 'state.cleanup-failed',
    level: 'warn',
    message: `Could not delete the old state chunk ${path}; it is harmless and will be removed by a later write`,
    data: { path, error: e instanceof Error ? e.message : String(e) },
  });
}
