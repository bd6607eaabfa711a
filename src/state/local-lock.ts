import { realClock, type Clock } from '../async/clock.js';
import { randomUUID } from 'node:crypto';
import { link, open, readFile, rename, unlink } from 'node:fs/promises';
import { hostname, userInfo } from 'node:os';
import { ConvergeError } from '../diagnostics/errors.js';
import type { LockInfo, StateLock } from './types.js';

/*
 * Local state lock: a lock file `<state>.lock` holding LockInfo JSON, put in place whole by a hard link that
 * fails when the file exists (one creator wins, atomically, on local filesystems; tryCreate). There is no lease: a holder that dies leaves the file.
 * A lock taken on this host by a pid that no longer runs is provably dead (the local counterpart of an
 * expired Nomad Variables lease), so it is taken over, and the caller is told whose lock it replaced:
 * a SIGKILLed CI job must not leave a lock that needs a human. A lock from another host (a shared
 * filesystem) or an unreadable one is never broken automatically: `converge state unlock <id>` does that.
 */

export interface LocalLockOptions {
  lockPath: string;
  /** For messages, e.g. `local state file /repo/.converge/state.json`. */
  description: string;
  /** Interval between attempts while waiting. */
  pollMs: number;
  /** Who to record as the holder. Default: this process. */
  holder?: { owner: string; host: string; pid: number };
  /** Waits between attempts; default the real clock. */
  clock?: Clock;
}

function currentHolder(): { owner: string; host: string; pid: number } {
  const host = hostname();
  let user = process.env.USER ?? process.env.USERNAME;
  if (!user) {
    try {
      user = userInfo().username;
    } catch {
      user = 'unknown'; // no passwd entry (some containers)
    }
  }
  return { owner: `${user}@${host}`, host, pid: process.pid };
}

/** `process.kill(pid, 0)` sends nothing; ESRCH means no such process (EPERM: it exists, not ours). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

export function isStale(info: LockInfo): boolean {
  return info.host === hostname() && Number.isInteger(info.pid) && info.pid > 0 && !pidAlive(info.pid);
}

function parseLockInfo(text: string): LockInfo | undefined {
  try {
    const v = JSON.parse(text) as Partial<LockInfo>;
    if (typeof v.id !== 'string' || typeof v.owner !== 'string' || typeof v.host !== 'string' || typeof v.pid !== 'number') return undefined;
    return {
      id: v.id,
      owner: v.owner,
      host: v.host,
      pid: v.pid,
      operation: typeof v.operation === 'string' ? v.operation : 'unknown',
      createdAt: typeof v.createdAt === 'string' ? v.createdAt : 'unknown',
    };
  } catch {
    return undefined;
  }
}

export async function readLockInfo(lockPath: string): Promise<LockInfo | undefined | 'unreadable'> {
  let text: string;
  try {
    text = await readFile(lockPath, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  return parseLockInfo(text) ?? 'unreadable';
}

function lockedError(opts: LocalLockOptions, holder: LockInfo | 'unreadable' | undefined): ConvergeError {
  if (holder === undefined || holder === 'unreadable') {
    return new ConvergeError('state.locked', `The ${opts.description} is locked, and the lock file ${opts.lockPath} cannot be read`, {
      source: 'user',
      hint: `if no converge is running, delete ${opts.lockPath} by hand`,
    });
  }
  const stale = isStale(holder);
  const who = `held by ${holder.owner} (host ${holder.host}, pid ${holder.pid}) for "${holder.operation}" since ${holder.createdAt}, lock id ${holder.id}`;
  const staleNote = stale ? `. The lock looks stale: process ${holder.pid} is no longer running on ${holder.host} (a crashed or killed run?)` : '';
  return new ConvergeError('state.locked', `The ${opts.description} is locked: ${who}${staleNote}`, {
    source: 'user',
    hint: stale
      ? `make sure no converge is running, then remove the lock: converge state unlock ${holder.id}`
      : `wait for that run to finish (or pass a longer --lock-timeout); if it died, remove the lock: converge state unlock ${holder.id}`,
  });
}


/**
 * Creates the lock file whole, or not at all; false when it exists already. The JSON is written and synced to
 * a file only this attempt names, then hard-linked to the lock path: link fails with EEXIST when a lock exists
 * (one creator wins, as with O_EXCL), and the lock path never names a file without its JSON. Opening the lock
 * path itself with O_EXCL and then writing left an empty lock file when the process was killed in between,
 * which no later run could read or take over.
 */
async function tryCreate(lockPath: string, info: LockInfo): Promise<boolean> {
  const draft = `${lockPath}.${process.pid}.${randomUUID()}.new`;
  try {
    const fh = await open(draft, 'wx', 0o600);
    try {
      await fh.writeFile(JSON.stringify(info, null, 2) + '\n');
      await fh.sync();
    } finally {
      await fh.close();
    }
    await link(draft, lockPath);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw new ConvergeError('state.lock-failed', `cannot create the lock file ${lockPath}: ${(e as Error).message}`, {
      source: 'user',
      hint: 'check the state directory exists and is writable',
      cause: e,
    });
  } finally {
    await unlink(draft).catch(() => undefined);
  }
}

/**
 * Removes a dead holder's lock file. Two live processes may race to take over the same dead lock:
 * the file is first renamed to a name only this attempt knows (rename is atomic, one wins), and the
 * renamed file is checked to still be the dead holder's before it is deleted; if another process
 * replaced the lock in between, its file is put back.
 */
async function removeDeadLock(lockPath: string, dead: LockInfo): Promise<boolean> {
  const aside = `${lockPath}.${process.pid}.${randomUUID()}.stale`;
  try {
    await rename(lockPath, aside);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false; // someone else took it first
    throw e;
  }
  const moved = await readLockInfo(aside);
  if (moved !== undefined && moved !== 'unreadable' && moved.id !== dead.id) {
    // A live lock was moved by mistake: restore it unless a new lock appeared meanwhile.
    await link(aside, lockPath).catch(() => undefined);
    await unlink(aside).catch(() => undefined);
    return false;
  }
  await unlink(aside).catch(() => undefined);
  return true;
}

export async function acquireLocalLock(opts: LocalLockOptions, operation: string, timeoutMs: number): Promise<StateLock> {
  const who = opts.holder ?? currentHolder();
  const info: LockInfo = { id: randomUUID(), owner: who.owner, host: who.host, pid: who.pid, operation, createdAt: new Date().toISOString() };
  const clock = opts.clock ?? realClock;
  const deadline = clock.now() + Math.max(0, timeoutMs);
  for (;;) {
    const leftBehind = `the next run on ${info.host} takes it over once this process is gone (or \`converge state unlock ${info.id}\` removes it)`;
    if (await tryCreate(opts.lockPath, info)) return { info, leftBehind, release: () => releaseIfOurs(opts.lockPath, info.id) };
    const dead = await readLockInfo(opts.lockPath);
    if (dead !== undefined && dead !== 'unreadable' && isStale(dead) && (await removeDeadLock(opts.lockPath, dead))) {
      const taken = await tryCreate(opts.lockPath, info);
      if (taken) return { info, replaced: dead, leftBehind, release: () => releaseIfOurs(opts.lockPath, info.id) };
      continue;
    }
    const remaining = deadline - clock.now();
    if (remaining <= 0) {
      let holder = await readLockInfo(opts.lockPath);
      // A holder may be between creating the file and writing its JSON: look once more.
      if (holder === 'unreadable') {
        await clock.sleep(50);
        holder = await readLockInfo(opts.lockPath);
      }
      if (holder === undefined) continue; // released just now: try again
      throw lockedError(opts, holder);
    }
    await clock.sleep(Math.min(opts.pollMs, remaining));
  }
}

async function releaseIfOurs(lockPath: string, id: string): Promise<void> {
  const holder = await readLockInfo(lockPath);
  // Someone force-unlocked and re-locked: that lock is theirs, not ours to remove.
  if (holder === undefined || holder === 'unreadable' || holder.id !== id) return;
  await unlink(lockPath).catch((e: NodeJS.ErrnoException) => {
    if (e.code !== 'ENOENT') throw e;
  });
}

export async function forceUnlockLocal(opts: LocalLockOptions, id: string): Promise<void> {
  const holder = await readLockInfo(opts.lockPath);
  if (holder === undefined) {
    throw new ConvergeError('state.not-locked', `The ${opts.description} is not locked`, { source: 'user', hint: 'nothing to unlock' });
  }
  if (holder === 'unreadable') {
    throw new ConvergeError('state.lock-unreadable', `The lock file ${opts.lockPath} cannot be read`, {
      source: 'user',
      hint: `if no converge is running, delete ${opts.lockPath} by hand`,
    });
  }
  if (holder.id !== id) {
    throw new ConvergeError('state.lock-id-mismatch', `The ${opts.description} is locked with id ${holder.id}, not ${id}`, {
      source: 'user',
      hint: `the lock is held by ${holder.owner} (pid ${holder.pid}) for "${holder.operation}"; pass its id to unlock it`,
    });
  }
  await unlink(opts.lockPath).catch((e: NodeJS.ErrnoException) => {
    if (e.code !== 'ENOENT') throw e;
  });
}
