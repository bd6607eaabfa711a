import { randomBytes } from 'node:crypto';
import { ConvergeError } from '../diagnostics/errors.js';
import { addressKey, type Address } from '../model/kinds.js';
import { byKindThenName } from './state-document.js';
import type { Reporter } from '../model/events.js';
import { STATE_FORMAT_VERSION, type InFlightRun, type SentCreate, type StateBackend, type StateChange, type StateDocument, type StateLock, type StateRecord } from './types.js';

/** A new, empty state with a fresh random salt (decisions.md §3). */
export function emptyState(): StateDocument {
  return { version: STATE_FORMAT_VERSION, salt: randomBytes(16).toString('hex'), serial: 0, records: [] };
}

/**
 * The state as one apply sees it: every mutation persists immediately (serial + 1), so a killed
 * apply loses nothing it already did. Mutations are queued: providers may save concurrently
 * (parallel upgrades), the backend sees one write at a time.
 */
export interface StateStore {
  readonly backend: StateBackend;
  /** The current document (reflects every mutation that has persisted). */
  readonly doc: StateDocument;
  /** Aborted when the state lock is lost mid-run (see StateLock.lostSignal): start no further remote work. */
  readonly lockLost: AbortSignal | undefined;
  /** The lock this store holds (until close), and what becomes of it if the process dies holding it. */
  readonly heldLock: { id: string; leftBehind?: string } | undefined;
  records(): StateRecord[];
  get(address: Address): StateRecord | undefined;
  put(record: StateRecord): Promise<void>;
  remove(address: Address): Promise<void>;
  setInFlight(address: Address, run: InFlightRun | undefined): Promise<void>;
  /** Creates sent without a record yet (decisions.md §28). */
  sent(): SentCreate[];
  /** Records that a create of `address` is about to be sent; a later `put` of it drops the mark. */
  markSent(address: Address, at: Date): Promise<void>;
  /** Drops the mark of a create known not to have made the object (nothing written when there is none). */
  clearSent(address: Address): Promise<void>;
  /** Releases the lock (if taken). Idempotent. */
  close(): Promise<void>;
}

export interface OpenStateStoreOptions {
  lock: boolean;
  /** Shown to whoever finds the lock held, e.g. `apply`. */
  operation: string;
  lockTimeoutMs: number;
  /** Told when the lock replaced one left by a dead holder. */
  reporter?: Reporter;
  /**
   * Rewrites a record's secret digests on every write: legacy SHA-256 digests whose value this process
   * has resolved become the current slow digests (secrets/digest.ts `DigestBook.upgradeAll`), so an old
   * state migrates as it is written. Records whose secrets were not resolved keep theirs until a later write.
   */
  upgradeDigests?: (digests: Record<string, string>) => Record<string, string>;
}

/** Takes the lock (when asked) before reading, so two applies never work from the same state. */
export async function openStateStore(backend: StateBackend, opts: OpenStateStoreOptions): Promise<StateStore> {
  const lock: StateLock | undefined = opts.lock ? await backend.lock(opts.operation, { timeoutMs: opts.lockTimeoutMs }) : undefined;
  if (lock?.replaced) {
    const dead = lock.replaced;
    opts.reporter?.emit({
      code: 'state.lock-replaced',
      level: 'warn',
      message:
        `took over the ${backend.description} lock left by ${dead.owner} (pid ${dead.pid}, "${dead.operation}" since ${dead.createdAt}): ` +
        `that process is no longer running on ${dead.host}; anything it left in flight is resumed from the state`,
      data: { lockId: dead.id, pid: dead.pid, host: dead.host },
    });
  }
  let head: StateDocument;
  try {
    head = await backend.read();
  } catch (e) {
    await lock?.release();
    throw e;
  }
  // Records by address, so a save and a lookup cost the same at 10 000 records as at 10. The sorted
  // document is built only when someone asks for it (and cached until the next change).
  const byAddress = new Map(head.records.map((r) => [addressKey(r), r]));
  const sentByAddress = new Map((head.sent ?? []).map((c) => [addressKey(c), c]));
  let serial = head.serial;
  let sorted: StateRecord[] | undefined = head.records;
  const currentDoc = (): StateDocument => {
    sorted ??= [...byAddress.values()].sort(byKindThenName);
    const sent = [...sentByAddress.values()];
    return { version: head.version, salt: head.salt, serial, records: sorted, ...(sent.length > 0 ? { sent } : {}) };
  };
  const upgrade = opts.upgradeDigests;
  const upgraded = (r: StateRecord): StateRecord => (upgrade ? { ...r, secretDigests: upgrade(r.secretDigests) } : r);
  /** Every record's digests in the current form: before a whole-document write (and the journal's fold). */
  const upgradeAll = (): void => {
    if (!upgrade) return;
    for (const [key, r] of byAddress) byAddress.set(key, upgraded(r));
    sorted = undefined;
  };
  let queue: Promise<void> = Promise.resolve();
  let closed = false;

  /** Applies the change in memory, persists it, and undoes it in memory if persisting failed. */
  const mutate = (makeChange: () => StateChange | undefined): Promise<void> => {
    const next = queue.then(async () => {
      if (closed) throw new ConvergeError('state.closed', 'the state store is closed', { source: 'internal' });
      const made = makeChange();
      if (made === undefined) return;
      // The changed record carries its digests in the current form (an old state migrates as it is written).
      const change: StateChange = made.op === 'put' ? { ...made, record: upgraded(made.record) } : made;
      const key = change.op === 'put' ? addressKey(change.record) : change.op === 'sent' ? addressKey(change.create) : addressKey(change);
      const before = byAddress.get(key);
      const sentBefore = sentByAddress.get(key);
      if (change.op === 'put') {
        byAddress.set(key, change.record);
        // The record is made: the create it followed is no longer only sent.
        sentByAddress.delete(key);
      } else if (change.op === 'remove') byAddress.delete(key);
      else if (change.op === 'sent') sentByAddress.set(key, change.create);
      else sentByAddress.delete(key);
      serial += 1;
      sorted = undefined;
      try {
        if (backend.append) await backend.append(serial, change, currentDoc);
        else {
          upgradeAll();
          await backend.write(currentDoc());
        }
      } catch (e) {
        if (before === undefined) byAddress.delete(key);
        else byAddress.set(key, before);
        if (sentBefore === undefined) sentByAddress.delete(key);
        else sentByAddress.set(key, sentBefore);
        serial -= 1;
        sorted = undefined;
        throw e;
      }
    });
    // A failed write must not block the next one; the caller still sees its own failure.
    queue = next.catch(() => undefined);
    return next;
  };

  return {
    backend,
    get doc() {
      return currentDoc();
    },
    lockLost: lock?.lostSignal,
    heldLock: lock ? { id: lock.info.id, ...(lock.leftBehind !== undefined ? { leftBehind: lock.leftBehind } : {}) } : undefined,
    records: () => [...currentDoc().records],
    get: (address) => byAddress.get(addressKey(address)),
    put: (record) => mutate(() => ({ op: 'put', record })),
    remove: (address) => mutate(() => ({ op: 'remove', kind: address.kind, name: address.name })),
    setInFlight: (address, run) =>
      mutate(() => {
        const current = byAddress.get(addressKey(address));
        if (current === undefined) {
          throw new ConvergeError('state.no-record', `cannot record a run for ${addressKey(address)}: it is not in state`, { source: 'internal' });
        }
        const { inFlight: _previous, ...rest } = current;
        return { op: 'put', record: run === undefined ? rest : { ...rest, inFlight: run } };
      }),
    sent: () => [...sentByAddress.values()],
    markSent: (address, at) => mutate(() => ({ op: 'sent', create: { kind: address.kind, name: address.name, at: at.toISOString() } })),
    clearSent: (address) => mutate(() => (sentByAddress.has(addressKey(address)) ? { op: 'unsent', kind: address.kind, name: address.name } : undefined)),
    async close() {
      if (closed) return;
      await queue;
      closed = true;
      try {
        // Only the lock holder may fold the journal: a plan reading beside an apply must not rewrite its state.
        if (lock && backend.compact) {
          upgradeAll();
          await backend.compact(currentDoc());
        }
      } catch (e) {
        // Nothing is lost: every change is already in the journal, and the next run folds it.
        opts.reporter?.emit({
          code: 'state.compact-failed',
          level: 'warn',
          message: `could not fold the ${backend.description} journal into the state file (${(e as Error).message}); every change is kept in the journal and the next run folds it`,
          data: { error: (e as Error).message },
        });
      } finally {
        await lock?.release();
      }
    },
  };
}
