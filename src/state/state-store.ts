import { randomBytes } from 'node:crypto';
import { ConvergeError } from '../diagnostics/errors.js';
import { addressKey, type Address } from '../model/kinds.js';
import { kindOrder } from '../kinds/registry.js';
import type { Reporter } from '../model/events.js';
import { STATE_FORMAT_VERSION, type InFlightRun, type StateBackend, type StateDocument, type StateLock, type StateRecord } from './types.js';

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
  records(): StateRecord[];
  get(address: Address): StateRecord | undefined;
  put(record: StateRecord): Promise<void>;
  remove(address: Address): Promise<void>;
  setInFlight(address: Address, run: InFlightRun | undefined): Promise<void>;
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

function sortRecords(records: StateRecord[]): StateRecord[] {
  return records.sort((a, b) => kindOrder(a.kind) - kindOrder(b.kind) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

const same = (r: Address, a: Address) => r.kind === a.kind && r.name === a.name;

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
  let doc: StateDocument;
  try {
    doc = await backend.read();
  } catch (e) {
    await lock?.release();
    throw e;
  }
  let queue: Promise<void> = Promise.resolve();
  let closed = false;

  const mutate = (change: (records: StateRecord[]) => StateRecord[]): Promise<void> => {
    const next = queue.then(async () => {
      if (closed) throw new ConvergeError('state.closed', 'the state store is closed', { source: 'internal' });
      const upgrade = opts.upgradeDigests;
      const changed = change([...doc.records]);
      const records = upgrade ? changed.map((r) => ({ ...r, secretDigests: upgrade(r.secretDigests) })) : changed;
      const updated: StateDocument = { ...doc, serial: doc.serial + 1, records: sortRecords(records) };
      await backend.write(updated);
      doc = updated;
    });
    // A failed write must not block the next one; the caller still sees its own failure.
    queue = next.catch(() => undefined);
    return next;
  };

  return {
    backend,
    get doc() {
      return doc;
    },
    lockLost: lock?.lostSignal,
    records: () => [...doc.records],
    get: (address) => doc.records.find((r) => same(r, address)),
    put: (record) => mutate((records) => [...records.filter((r) => !same(r, record)), record]),
    remove: (address) => mutate((records) => records.filter((r) => !same(r, address))),
    setInFlight: (address, run) =>
      mutate((records) => {
        const i = records.findIndex((r) => same(r, address));
        const current = records[i];
        if (current === undefined) {
          throw new ConvergeError('state.no-record', `cannot record a run for ${addressKey(address)}: it is not in state`, { source: 'internal' });
        }
        const { inFlight: _previous, ...rest } = current;
        records[i] = run === undefined ? rest : { ...rest, inFlight: run };
        return records;
      }),
    async close() {
      if (closed) return;
      await queue;
      closed = true;
      await lock?.release();
    },
  };
}
