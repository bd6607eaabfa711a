import type { Stats } from 'node:fs';
import { mkdir, open, stat, unlink, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ConvergeError } from '../diagnostics/errors.js';
import { acquireLocalLock, forceUnlockLocal, type LocalLockOptions } from './local-lock.js';
import { readStateFile, replaceFileAtomically, sameFile, syncDirectory } from './local-file.js';
import { journalHeaderLine, journalLine, replayJournal } from './local-journal.js';
import { parseStateDocument } from './state-document.js';
import { emptyState } from './state-store.js';
import type { StateBackend, StateDocument } from './types.js';

export { parseStateDocument } from './state-document.js';
export { MAX_STATE_FILE_BYTES } from './local-file.js';

export interface LocalBackendOptions {
  /** Interval between lock attempts while waiting. Default 250 ms. */
  lockPollMs?: number;
  /** Who to record as the lock holder (tests). Default: this user, host and pid. */
  holder?: LocalLockOptions['holder'];
  /** Waits between lock attempts (tests). Default: the real clock. */
  clock?: LocalLockOptions['clock'];
  /** Journal size past which an append folds it into the state file. Default: 1 MiB or the state file's size, whichever is larger. */
  compactAtBytes?: number;
}

/** Journals smaller than this are never folded early: folding a small state often would cost more than it saves. */
const MIN_COMPACT_BYTES = 1024 * 1024;

async function statOrUndefined(path: string): Promise<Stats | undefined> {
  try {
    return await stat(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ConvergeError('state.read-failed', `cannot read ${path}: ${(e as Error).message}`, { source: 'user', cause: e });
  }
}

/** write(2) may write less than asked (a file size limit, a full disk): write the rest, which then fails with the cause. */
async function writeAll(fh: FileHandle, buf: Buffer): Promise<void> {
  let offset = 0;
  while (offset < buf.length) {
    const { bytesWritten } = await fh.write(buf, offset);
    if (bytesWritten <= 0) throw new Error('the write made no progress');
    offset += bytesWritten;
  }
}

/** What this backend last saw on disk; every write checks the disk still shows it. */
interface Seen {
  /** Serial of the state (snapshot and journal) at our last read or write. */
  serial: number;
  salt: string;
  /** The state file's identity, undefined when there is none yet. */
  snapshot: Stats | undefined;
  snapshotSerial: number;
  /** The journal's size on disk (0: none), and how much of it is whole lines. */
  journalBytes: number;
  journalGoodBytes: number;
}

/**
 * State in a local JSON file plus a journal beside it (`<state>.journal`, see local-journal.ts). A change is
 * one fdatasync'd journal line, so a save costs O(1) in the size of the state and a kill loses nothing
 * acknowledged; the journal is folded into the file when it outgrows it and when a run closes the store. The
 * file itself is only ever replaced atomically (temp file, fsync, rename, fsync of the directory), so a crash
 * leaves the old or the new file, never half of one. Each write first checks the files are still the ones
 * this backend last saw (`state.conflict` otherwise): the lock keeps two writers apart, the check catches
 * anyone who skipped it.
 */
export function createLocalBackend(path: string, opts: LocalBackendOptions = {}): StateBackend {
  const description = `local state file ${path}`;
  const journalPath = `${path}.journal`;
  const lockOpts: LocalLockOptions = {
    lockPath: `${path}.lock`,
    description,
    pollMs: opts.lockPollMs ?? 250,
    ...(opts.holder ? { holder: opts.holder } : {}),
    ...(opts.clock ? { clock: opts.clock } : {}),
  };
  let seen: Seen | undefined;

  async function readCurrent(): Promise<{ doc: StateDocument | undefined; seen: Omit<Seen, 'serial' | 'salt'> }> {
    const snap = await readStateFile(path, 'state file');
    const journal = await readStateFile(journalPath, 'state journal');
    const snapshot = snap === undefined ? undefined : parseStateDocument(snap.text, path);
    let doc = snapshot;
    let journalGoodBytes = 0;
    if (journal !== undefined && journal.text.replace(/[\0\n]/g, '') !== '') {
      if (doc === undefined) {
        throw new ConvergeError('state.corrupt', `The state journal ${journalPath} has no state file ${path} beside it`, {
          source: 'user',
          hint: `restore ${path} from version control or a backup; delete the journal only if you mean to start from an empty state`,
        });
      }
      const replayed = replayJournal(doc, journal.text, journalPath);
      doc = replayed.doc;
      journalGoodBytes = replayed.goodBytes;
    }
    return {
      doc,
      seen: { snapshot: snap?.stats, snapshotSerial: snapshot?.serial ?? 0, journalBytes: journal?.stats.size ?? 0, journalGoodBytes },
    };
  }

  function conflict(what: string): ConvergeError {
    return new ConvergeError('state.conflict', `The ${description} changed since it was read (${what})`, {
      source: 'user',
      hint: 'another converge wrote the state meanwhile: run the command again (and use the state lock)',
    });
  }

  /** Cheap check (two stats) that nobody replaced the file or appended to the journal since we last did. */
  async function checkUnchanged(s: Seen): Promise<void> {
    const [snapshot, journal] = await Promise.all([statOrUndefined(path), statOrUndefined(journalPath)]);
    if (!sameFile(snapshot, s.snapshot)) throw conflict('the state file was replaced');
    if ((journal?.size ?? 0) !== s.journalBytes) throw conflict('its journal grew');
  }

  /** Replaces the state file with `doc` and drops the journal (its changes are all in `doc`). */
  async function writeSnapshot(doc: StateDocument): Promise<void> {
    const snapshot = await replaceFileAtomically(path, JSON.stringify(doc, null, 2) + '\n');
    if (seen !== undefined && seen.journalBytes > 0) {
      // A crash right here is harmless: every journal line now has a serial the file already holds.
      await unlink(journalPath).catch((e: NodeJS.ErrnoException) => {
        if (e.code !== 'ENOENT') throw e;
      });
      await syncDirectory(dirname(path));
    }
    seen = { serial: doc.serial, salt: doc.salt, snapshot, snapshotSerial: doc.serial, journalBytes: 0, journalGoodBytes: 0 };
  }

  function journalWriteFailed(e: unknown): ConvergeError {
    return new ConvergeError('state.write-failed', `cannot write the state file ${path} (its journal ${journalPath}): ${(e as Error).message}`, { source: 'user', cause: e });
  }

  return {
    description,
    async read() {
      const current = await readCurrent();
      const doc = current.doc ?? emptyState();
      seen = { ...current.seen, serial: doc.serial, salt: doc.salt };
      return doc;
    },
    async write(doc) {
      const current = await readCurrent();
      const currentSerial = current.doc?.serial ?? 0;
      const expected = seen?.serial ?? currentSerial;
      if (currentSerial !== expected || doc.serial <= currentSerial) {
        throw conflict(`serial ${currentSerial}, expected ${expected}; writing ${doc.serial}`);
      }
      seen = { ...current.seen, serial: currentSerial, salt: doc.salt };
      await writeSnapshot(doc);
    },
    async append(serial, change, currentDoc) {
      if (seen === undefined) throw new ConvergeError('state.not-read', 'the state was appended to before it was read', { source: 'internal' });
      const s = seen;
      if (serial !== s.serial + 1) throw conflict(`serial ${s.serial}; appending ${serial}`);
      await checkUnchanged(s);
      // The journal needs a file to belong to: the first change of a new state writes the file itself.
      if (s.snapshot === undefined) return writeSnapshot(currentDoc());
      const fresh = s.journalGoodBytes === 0;
      const text = (fresh ? journalHeaderLine(s.salt, s.snapshotSerial) : '') + journalLine(serial, change);
      const fh = await open(journalPath, 'a', 0o600).catch((e: unknown) => {
        throw journalWriteFailed(e);
      });
      try {
        // A torn last line left by a crash is cut off before anything follows it.
        if (s.journalBytes !== s.journalGoodBytes) await fh.truncate(s.journalGoodBytes);
        await writeAll(fh, Buffer.from(text));
        await fh.datasync();
      } catch (e) {
        // A full disk or a file size limit can leave part of the line: take it back, so the journal still
        // ends with a whole line and the next save (after the cause is fixed) appends cleanly.
        await fh.truncate(s.journalGoodBytes).catch(() => undefined);
        seen = { ...s, journalBytes: s.journalGoodBytes };
        throw journalWriteFailed(e);
      } finally {
        await fh.close();
      }
      if (s.journalBytes === 0) await syncDirectory(dirname(path));
      const bytes = s.journalGoodBytes + Buffer.byteLength(text);
      seen = { ...s, serial, journalBytes: bytes, journalGoodBytes: bytes };
      // Folding when the journal outgrows the file keeps both the replay and the bytes written per change O(1).
      // The change is already durable: a fold that fails is tried again at the next save and at close.
      if (bytes > (opts.compactAtBytes ?? Math.max(MIN_COMPACT_BYTES, s.snapshot.size))) await writeSnapshot(currentDoc()).catch(() => undefined);
    },
    async compact(doc) {
      if (seen === undefined || seen.journalBytes === 0) return;
      if (doc.serial !== seen.serial) throw conflict(`serial ${seen.serial}; folding ${doc.serial}`);
      await checkUnchanged(seen);
      await writeSnapshot(doc);
    },
    async lock(operation, { timeoutMs }) {
      await mkdir(dirname(path), { recursive: true });
      return acquireLocalLock(lockOpts, operation, timeoutMs);
    },
    forceUnlock: (id) => forceUnlockLocal(lockOpts, id),
  };
}
