import { randomBytes } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { mkdir, open, rename, unlink } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { ConvergeError } from '../diagnostics/errors.js';
import { isKind } from '../kinds/registry.js';
import { acquireLocalLock, forceUnlockLocal, type LocalLockOptions } from './local-lock.js';
import { emptyState } from './state-store.js';
import { STATE_FORMAT_VERSION, type StateBackend, type StateDocument } from './types.js';

export interface LocalBackendOptions {
  /** Interval between lock attempts while waiting. Default 250 ms. */
  lockPollMs?: number;
  /** Who to record as the lock holder (tests). Default: this user, host and pid. */
  holder?: LocalLockOptions['holder'];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function corrupt(path: string, what: string, cause?: unknown): ConvergeError {
  return new ConvergeError('state.corrupt', `The state file ${path} is corrupt: ${what}`, {
    source: 'user',
    hint: 'restore it from version control or a backup; converge never discards a state it cannot read, since that would lose track of what it owns',
    ...(cause !== undefined ? { cause } : {}),
  });
}

/** Checks the document shape; a state that does not parse is never silently replaced. */
export function parseStateDocument(text: string, path: string): StateDocument {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw corrupt(path, `not valid JSON (${(e as Error).message})`, e);
  }
  if (!isObject(data)) throw corrupt(path, 'the top level is not an object');
  if (data.version !== STATE_FORMAT_VERSION) {
    throw new ConvergeError('state.version', `The state file ${path} has version ${JSON.stringify(data.version ?? null)}; this converge reads version ${STATE_FORMAT_VERSION}`, {
      source: 'user',
      hint: 'use the converge version that wrote it',
    });
  }
  if (typeof data.salt !== 'string' || data.salt === '') throw corrupt(path, '`salt` is missing');
  if (typeof data.serial !== 'number' || !Number.isInteger(data.serial) || data.serial < 0) throw corrupt(path, '`serial` is not a whole number');
  if (!Array.isArray(data.records)) throw corrupt(path, '`records` is not a list');
  data.records.forEach((r: unknown, i) => {
    if (!isObject(r) || typeof r.kind !== 'string' || !isKind(r.kind) || typeof r.name !== 'string' || typeof r.id !== 'string') {
      throw corrupt(path, `records[${i}] is not a record (kind, name, id)`);
    }
    if (!isObject(r.applied) || !isObject(r.secretDigests) || !isObject(r.extra) || typeof r.protect !== 'boolean') {
      throw corrupt(path, `records[${i}] (${String(r.kind)}/${String(r.name)}) lacks applied/secretDigests/extra/protect`);
    }
  });
  return data as unknown as StateDocument;
}

/** Far above any real state (10 000 workspaces take a few MB); past it the path is not a state file. */
export const MAX_STATE_FILE_BYTES = 256 * 1024 * 1024;

/**
 * The state file's text, or undefined when there is none. Only a regular file is read: a FIFO would
 * block the read forever (with the lock held) and a device such as /dev/zero would be read until
 * memory runs out. The file is opened non-blocking and checked on the open handle, so nothing can be
 * swapped in between the check and the read.
 */
async function readStateText(path: string): Promise<string | undefined> {
  let fh;
  try {
    fh = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ConvergeError('state.read-failed', `cannot read the state file ${path}: ${(e as Error).message}`, { source: 'user', cause: e });
  }
  try {
    const st = await fh.stat();
    if (!st.isFile()) {
      throw new ConvergeError('state.not-a-file', `The state path ${path} is not a regular file (it is ${fileType(st)})`, {
        source: 'user',
        hint: 'point spec.state.path in the Settings document at a regular file (it is created on the first apply)',
      });
    }
    if (st.size > MAX_STATE_FILE_BYTES) {
      throw new ConvergeError('state.too-large', `The state file ${path} is ${st.size} bytes, more than any converge state (${MAX_STATE_FILE_BYTES} bytes)`, {
        source: 'user',
        hint: 'check that spec.state.path names converge\'s state file',
      });
    }
    return await fh.readFile('utf8');
  } catch (e) {
    if (e instanceof ConvergeError) throw e;
    throw new ConvergeError('state.read-failed', `cannot read the state file ${path}: ${(e as Error).message}`, { source: 'user', cause: e });
  } finally {
    await fh.close();
  }
}

function fileType(st: Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a named pipe';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isSocket()) return 'a socket';
  return 'not a file';
}

/**
 * State in a local JSON file. Writes are atomic (temp file in the same directory, fsync, rename,
 * fsync of the directory) so a crash leaves the old or the new state, never half of one. A write
 * checks the file's serial is still the one this backend last read (`state.conflict` otherwise);
 * the lock is what keeps two writers apart, the serial check catches anyone who skipped it.
 */
export function createLocalBackend(path: string, opts: LocalBackendOptions = {}): StateBackend {
  const description = `local state file ${path}`;
  const lockOpts: LocalLockOptions = {
    lockPath: `${path}.lock`,
    description,
    pollMs: opts.lockPollMs ?? 250,
    ...(opts.holder ? { holder: opts.holder } : {}),
  };
  /** Serial of the file at our last read or write; undefined before the first read. */
  let known: number | undefined;

  async function readCurrent(): Promise<StateDocument | undefined> {
    const text = await readStateText(path);
    return text === undefined ? undefined : parseStateDocument(text, path);
  }

  return {
    description,
    async read() {
      const doc = await readCurrent();
      known = doc?.serial ?? 0;
      return doc ?? emptyState();
    },
    async write(doc) {
      const current = await readCurrent();
      const currentSerial = current?.serial ?? 0;
      const expected = known ?? currentSerial;
      if (currentSerial !== expected || doc.serial <= currentSerial) {
        throw new ConvergeError(
          'state.conflict',
          `The ${description} changed since it was read (serial ${currentSerial}, expected ${expected}; writing ${doc.serial})`,
          { source: 'user', hint: 'another converge wrote the state meanwhile: run the command again (and use the state lock)' },
        );
      }
      const dir = dirname(path);
      await mkdir(dir, { recursive: true });
      const temp = `${dir}/.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`;
      try {
        const fh = await open(temp, 'wx', 0o600);
        try {
          await fh.writeFile(JSON.stringify(doc, null, 2) + '\n');
          await fh.sync();
        } finally {
          await fh.close();
        }
        await rename(temp, path);
      } catch (e) {
        // A full disk fails the write or the sync: leave no half-written temp file behind.
        await unlink(temp).catch(() => undefined);
        throw new ConvergeError('state.write-failed', `cannot write the state file ${path}: ${(e as Error).message}`, { source: 'user', cause: e });
      }
      // Make the rename itself durable. Some filesystems refuse fsync on a directory: then best effort.
      try {
        const d = await open(dir, 'r');
        try {
          await d.sync();
        } finally {
          await d.close();
        }
      } catch {
        // ignored on purpose (see above)
      }
      known = doc.serial;
    },
    async lock(operation, { timeoutMs }) {
      await mkdir(dirname(path), { recursive: true });
      return acquireLocalLock(lockOpts, operation, timeoutMs);
    },
    forceUnlock: (id) => forceUnlockLocal(lockOpts, id),
  };
}
