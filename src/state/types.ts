import type { Kind } from '../model/kinds.js';
import type { JsonValue } from '../model/json.js';

export const STATE_FORMAT_VERSION = 1;

/** An upgrade (or first run / destroy run) converge started and has not seen finish. */
export interface InFlightRun {
  /** What the run is for. */
  purpose: 'provision' | 'upgrade' | 'destroy';
  runId: string;
  /** Last phase converge saw: initiated → planned → confirmed → done. */
  phase: 'initiated' | 'planned' | 'confirmed';
  startedAt: string;
  /** Module version targeted, when known. */
  toVersion?: string | null;
}

/** What converge knows about one object it owns. Never holds a secret value. */
export interface StateRecord {
  kind: Kind;
  name: string;
  /** Remote id (auth method name, binding rule UUID, `nocode-…`, `ws-…`). */
  id: string;
  /** Non-sensitive field values as last applied (normalised), so drift can name fields. */
  applied: Record<string, JsonValue>;
  /** Salted digests of sensitive values as last applied, keyed by field path. */
  secretDigests: Record<string, string>;
  /** Opaque provider data, e.g. the Nomad `Hash` seen after the last write, the workspace's module id. */
  extra: Record<string, JsonValue>;
  protect: boolean;
  /**
   * The manifest file its document came from when last applied. With `rootRelative`, relative to the state
   * root: the Settings document's directory, else the working directory (decisions.md §27); without it
   * (records of older releases), relative to the working directory of the run that wrote it, which is not
   * known. A plan given other paths leaves the object alone while this file exists (decisions.md §16).
   * Absent in records written before converge recorded it.
   */
  source?: string;
  /** `source` is relative to the state root (decisions.md §27); absent in records of older releases. */
  rootRelative?: true;
  updatedAt: string;
  inFlight?: InFlightRun;
}

/**
 * A create this state sent (or was about to send) and has no record of yet: written before the request goes
 * out, dropped when the record is made or the create is known to have failed. A rerun after a kill takes the
 * live object it finds under that name as its own without asking (decisions.md §28): this state made it.
 */
export interface SentCreate {
  kind: Kind;
  name: string;
  /** When the create was about to be sent (ISO time). */
  at: string;
}

export interface StateDocument {
  version: typeof STATE_FORMAT_VERSION;
  /** Random per-state salt for secret digests (not secret by itself; prevents dictionary matching across states). */
  salt: string;
  /** Incremented on every write; lets backends detect lost updates. */
  serial: number;
  records: StateRecord[];
  /** Creates sent without a record yet (decisions.md §28); absent when there are none. */
  sent?: SentCreate[];
}

export interface LockInfo {
  id: string;
  owner: string;
  host: string;
  pid: number;
  operation: string;
  createdAt: string;
}

export interface StateLock {
  info: LockInfo;
  /** A lock left by a holder known to be dead, which this lock replaced (callers warn about it). */
  replaced?: LockInfo;
  /**
   * Aborted when the lock is lost while held (a lease that could not be renewed in time), with the
   * error as its reason. Unset for locks that cannot be lost (the local file lock).
   */
  lostSignal?: AbortSignal;
  /**
   * What becomes of this lock if the process exits without releasing it, and how to remove it, for a
   * run stopped at once (a second Ctrl-C): e.g. "it stays until `converge state unlock <id>` …".
   */
  leftBehind?: string;
  release(): Promise<void>;
}

/** One change to the state: what a journal line holds (`put` replaces the record at its kind and name). */
export type StateChange =
  | { op: 'put'; record: StateRecord }
  | { op: 'remove'; kind: Kind; name: string }
  /** A create about to be sent (SentCreate); a `put` of the same address drops it. */
  | { op: 'sent'; create: SentCreate }
  /** A create known not to have made the object: its SentCreate goes. */
  | { op: 'unsent'; kind: Kind; name: string };

/** A place to keep state. Local file and Nomad Variables implement it; one conformance suite tests both. */
export interface StateBackend {
  readonly description: string;
  read(): Promise<StateDocument>;
  /** Atomic replace; rejects with code `state.conflict` if someone else wrote since our read. */
  write(doc: StateDocument): Promise<void>;
  /**
   * Optional: persists one change durably without rewriting the whole document, so a save costs the size
   * of the change, not of the state. `serial` is the document's serial after the change; `current` gives
   * that whole document, for a backend that folds its journal into a snapshot when the journal grows.
   * Rejects with `state.conflict` like `write`. Without it, every change is a `write` of the whole document.
   */
  append?(serial: number, change: StateChange, current: () => StateDocument): Promise<void>;
  /** Optional: folds what `append` wrote into one document (the store calls it at close, under the lock). */
  compact?(doc: StateDocument): Promise<void>;
  lock(operation: string, options: { timeoutMs: number }): Promise<StateLock>;
  /** Removes a lock left by a dead process; `id` must match the lock's id. */
  forceUnlock(id: string): Promise<void>;
}
