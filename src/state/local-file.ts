import { randomBytes } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { mkdir, open, rename, unlink } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { ConvergeError } from '../diagnostics/errors.js';

/** Far above any real state (10 000 workspaces take a few MB); past it the path is not a state file. */
export const MAX_STATE_FILE_BYTES = 256 * 1024 * 1024;

/**
 * The file's text and identity, or undefined when there is none. Only a regular file is read: a FIFO
 * would block the read forever (with the lock held) and a device such as /dev/zero would be read until
 * memory runs out. The file is opened non-blocking and checked on the open handle, so nothing can be
 * swapped in between the check and the read.
 */
export async function readStateFile(path: string, what: string): Promise<{ text: string; stats: Stats } | undefined> {
  let fh;
  try {
    fh = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ConvergeError('state.read-failed', `cannot read the ${what} ${path}: ${(e as Error).message}`, { source: 'user', cause: e });
  }
  try {
    const stats = await fh.stat();
    if (!stats.isFile()) {
      throw new ConvergeError('state.not-a-file', `The state path ${path} is not a regular file (it is ${fileType(stats)})`, {
        source: 'user',
        hint: 'point spec.state.path in the Settings document at a regular file (it is created on the first apply)',
      });
    }
    if (stats.size > MAX_STATE_FILE_BYTES) {
      throw new ConvergeError('state.too-large', `The ${what} ${path} is ${stats.size} bytes, more than any converge state (${MAX_STATE_FILE_BYTES} bytes)`, {
        source: 'user',
        hint: 'check that spec.state.path names converge\'s state file',
      });
    }
    // Read whole, then decoded once: readFile('utf8') decodes chunk by chunk into a rope that JSON.parse
    // flattens into a second copy (two copies of a 15 MB state at once, where this makes one).
    const bytes = await fh.readFile();
    return { text: bytes.toString('utf8'), stats };
  } catch (e) {
    if (e instanceof ConvergeError) throw e;
    throw new ConvergeError('state.read-failed', `cannot read the ${what} ${path}: ${(e as Error).message}`, { source: 'user', cause: e });
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
 * Replaces `path` atomically (temp file in the same directory, fsync, rename, fsync of the directory), so a
 * crash leaves the old or the new file, never half of one. Returns the new file's identity.
 */
export async function replaceFileAtomically(path: string, text: string): Promise<Stats> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true });
  const temp = `${dir}/.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`;
  let stats: Stats;
  try {
    const fh = await open(temp, 'wx', 0o600);
    try {
      await fh.writeFile(text);
      await fh.sync();
      stats = await fh.stat();
    } finally {
      await fh.close();
    }
    await rename(temp, path);
  } catch (e) {
    // A full disk fails the write or the sync: leave no half-written temp file behind.
    await unlink(temp).catch(() => undefined);
    throw new ConvergeError('state.write-failed', `cannot write the state file ${path}: ${(e as Error).message}`, { source: 'user', cause: e });
  }
  await syncDirectory(dir);
  return stats;
}

/** Makes a rename, create or unlink in `dir` durable. Some filesystems refuse fsync on a directory: then best effort. */
export async function syncDirectory(dir: string): Promise<void> {
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
}

/** Same file, same content as when we last saw it: inode (renames make a new one), size and mtime. */
export function sameFile(a: Stats | undefined, b: Stats | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.ino === b.ino && a.dev === b.dev && a.size === b.size && a.mtimeMs === b.mtimeMs;
}
