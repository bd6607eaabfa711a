import { constants, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';

/**
 * A secret file is a small regular file: a password, a token, a PEM key of a few KB. 1 MB is far above
 * any of them and far below what would hurt (a 1 GB file was read whole, 605 MB of memory, before
 * anything said it was wrong).
 */
export const MAX_SECRET_FILE_BYTES = 1024 * 1024;

/** What a path that is not a regular file is, in words: a FIFO or device would block or never end, a directory cannot be read. */
export function notARegularFile(st: Stats): string | undefined {
  if (st.isFile()) return undefined;
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a named pipe (FIFO)';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** Why a secret file cannot be used (`undefined`: it can): not a regular file, or too large. Reads nothing. */
export function secretFileProblem(st: Stats): string | undefined {
  const kind = notARegularFile(st);
  if (kind !== undefined) return `it is ${kind}, not a regular file`;
  if (st.size > MAX_SECRET_FILE_BYTES) return `it is ${st.size} bytes, more than a secret file may hold (${MAX_SECRET_FILE_BYTES} bytes)`;
  return undefined;
}

/**
 * Reads a secret file as UTF-8, checking what it is before reading: opened without blocking (a FIFO
 * with no writer would wait for ever), refused unless a regular file of at most MAX_SECRET_FILE_BYTES,
 * and never read past that size even if it grows meanwhile. Throws `{ problem }` or the open's error.
 */
export async function readSecretFile(path: string): Promise<string> {
  const fh = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const problem = secretFileProblem(await fh.stat());
    if (problem !== undefined) throw new SecretFileProblem(problem);
    const buf = Buffer.alloc(MAX_SECRET_FILE_BYTES + 1);
    let size = 0;
    for (;;) {
      const { bytesRead } = await fh.read(buf, size, buf.length - size, null);
      if (bytesRead === 0) break;
      size += bytesRead;
      if (size > MAX_SECRET_FILE_BYTES) throw new SecretFileProblem(`it grew past ${MAX_SECRET_FILE_BYTES} bytes while being read`);
    }
    return buf.subarray(0, size).toString('utf8');
  } finally {
    await fh.close();
  }
}

export class SecretFileProblem extends Error {}
