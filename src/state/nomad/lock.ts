import { realClock, type Clock, type ClockTimer } from '../../async/clock.js';
import { randomUUID } from 'node:crypto';
import { hostname, userInfo } from 'node:os';
import { ConvergeError } from '../../diagnostics/errors.js';
import { formatDuration } from '../../model/duration-text.js';
import type { Reporter } from '../../model/events.js';
import type { LockInfo, StateLock } from '../types.js';
import type { VariablesClient, WireVariable } from './variables-client.js';

/*
 * State lock on a SEPARATE variable (`<path>-lock`): lock-acquire replaces the variable's Items with
 * the request's (docs/reference/nomad-api.md §9, state `VarLockAcquire` → `varSetTxn`), so locking the
 * data variable would wipe the state. The lease is renewed every TTL/3 while held, and counts as lost
 * once no renewal succeeded for a TTL (startHeldLock). If converge dies, Nomad's timer runs out 2 x TTL
 * after the last renewal, the lock stays for LockDelay, then clears and the next run gets it.
 */

/** Who holds the lock; defaults to this process. */
export interface LockHolder {
  owner: string;
  host: string;
  pid: number;
}

export interface NomadLockOptions {
  vars: VariablesClient;
  lockPath: string;
  /** Go duration, 10s–24h (§9). */
  ttl: string;
  /** Go duration; Nomad's default (15s) when unset. */
  lockDelay?: string;
  pollIntervalMs: number;
  reporter: Reporter;
  holder: LockHolder;
  /** For messages: `Nomad Variables converge/state (namespace default)`. */
  description: string;
  /** Polling, lease renewals and the local lease deadline; default the real clock. */
  clock?: Clock;
}

/** Item keys on the lock variable and its holder record (`nomadLockId`, see recordNomadLockId). */
const K = { id: 'id', owner: 'owner', host: 'host', pid: 'pid', operation: 'operation', createdAt: 'createdAt', nomadLockId: 'nomadLockId' } as const;

export function defaultHolder(): LockHolder {
  let owner = 'unknown';
  try {
    owner = userInfo().username;
  } catch {
    // No passwd entry (some containers): keep "unknown".
  }
  return { owner, host: hostname(), pid: process.pid };
}

export interface HeldNomadLock extends StateLock {
  /** True once a renewal found the lease gone, or no renewal succeeded within the TTL (local deadline). */
  readonly lost: boolean;
  /** Aborted, with the `state.lock-lost` error as reason, when the lock is lost. */
  readonly lostSignal: AbortSignal;
}

export async function acquireNomadLock(opts: NomadLockOptions, operation: string, timeoutMs: number): Promise<HeldNomadLock> {
  const ttlMs = parseGoDuration(opts.ttl);
  const info: LockInfo = {
    id: randomUUID(),
    owner: opts.holder.owner,
    host: opts.holder.host,
    pid: opts.holder.pid,
    operation,
    createdAt: new Date().toISOString(),
  };
  const items = lockItems(info);
  const clock = opts.clock ?? realClock;
  const deadline = clock.now() + Math.max(0, timeoutMs);
  let waited = false;
  for (;;) {
    // The lease counts from before the request went out: Nomad may have started it any time after.
    const sentAt = clock.now();
    const res = await opts.vars.lockAcquire(opts.lockPath, items, {
      ttl: opts.ttl,
      ...(opts.lockDelay !== undefined ? { lockDelay: opts.lockDelay } : {}),
    });
    if (res.ok) {
      await recordNomadLockId(opts, info, res.lockId);
      opts.reporter.emit({
        code: 'state.lock.acquired',
        level: 'debug',
        message: `Locked ${opts.description} (lock ${info.id}, lease ${opts.ttl}, renewed every ${Math.round(ttlMs / 3000)}s)`,
        data: { lockId: info.id, path: opts.lockPath },
      });
      return startHeldLock(opts, info, res.lockId, ttlMs, sentAt);
    }
    // 409: held under another ID. The conflict body is zero-valued, so read the holder from the variable.
    const holder = await readHolder(opts.vars, opts.lockPath);
    const remaining = deadline - clock.now();
    if (holder?.id === info.id) {
      // Our own earlier attempt got the lock but its reply was lost, and this token cannot see Nomad's
      // lock ID (only management tokens can, §9): we can neither renew nor release it. It clears by itself.
      opts.reporter.emit({
        code: 'state.lock.own-unknown',
        level: 'warn',
        message: `This run's own lock request on ${opts.description} succeeded but its reply was lost, and this token cannot read the lock's ID; it clears by itself ${recoveryText(opts)}`,
        data: { lockId: info.id, path: opts.lockPath },
      });
    }
    if (remaining <= 0) throw lockedError(opts, holder);
    if (!waited) {
      waited = true;
      opts.reporter.emit({
        code: 'state.lock.wait',
        level: 'info',
        message: `Waiting up to ${Math.ceil(remaining / 1000)}s for the state lock: ${describeHolder(holder)}`,
        data: { path: opts.lockPath, ...(holder ? { holderId: holder.id } : {}) },
      });
    }
    await clock.sleep(Math.min(opts.pollIntervalMs, remaining));
  }
}

/**
 * Nomad generates the lock ID only in the acquire reply, after our Items were stored. We keep it in a
 * sibling variable, `<lock path>-holder`, so `forceUnlock` can release the lock even with a token that
 * cannot see `Lock` (only management tokens can, §9). Never in the lock variable itself: a plain PUT
 * carrying the matching Lock.ID is allowed there, but it rewrites the stored lock to the 15s TTL and
 * delay defaults, so every later renewal would reset Nomad's timer to 2 x 15s instead of 2 x the TTL
 * asked for (docs/reference/nomad-api.md §9; nomad/structs/variables.go `VariableLock.Canonicalize`).
 * Best effort: without the record, a dead holder's lock still clears after its lease and delay.
 */
async function recordNomadLockId(opts: NomadLockOptions, info: LockInfo, nomadLockId: string): Promise<void> {
  try {
    const r = await opts.vars.put(holderRecordPath(opts.lockPath), { [K.id]: info.id, [K.nomadLockId]: nomadLockId });
    if (!r.ok) throw new Error('conflict');
  } catch (e) {
    opts.reporter.emit({
      code: 'state.lock.record-failed',
      level: 'warn',
      message: `Could not record the Nomad lock ID in ${holderRecordPath(opts.lockPath)}; if this run dies, Nomad clears the lock by itself ${recoveryText(opts)}`,
      data: { path: opts.lockPath, error: e instanceof Error ? e.message : String(e) },
    });
  }
}

/** Where the holder's Nomad lock ID is kept while the lock is held (see recordNomadLockId). */
export const holderRecordPath = (lockPath: string) => `${lockPath}-holder`;

/** Nomad's lock ID for the current holder: from `Lock` (management tokens), else the holder record if it is this holder's. */
async function nomadLockIdOf(opts: NomadLockOptions, v: WireVariable, holder: LockInfo | undefined): Promise<string | undefined> {
  if (v.Lock?.ID) return v.Lock.ID;
  // Written into the lock variable itself by converge before the holder record existed.
  const legacy = v.Items?.[K.nomadLockId];
  if (legacy) return legacy;
  if (!holder) return undefined;
  const record = await opts.vars.get(holderRecordPath(opts.lockPath));
  // A record left by an earlier holder names another converge lock id: it says nothing about this lock.
  return record?.Items?.[K.id] === holder.id ? record.Items[K.nomadLockId] : undefined;
}

/**
 * The lease as this process can vouch for it: Nomad keeps a lock at least TTL after the last renewal
 * it accepted (§9), so the last renewal we SAW succeed, counted from when it was sent, plus the TTL is
 * a deadline we can trust without hearing from Nomad. Past it another run may hold the lock: the lock
 * is lost, whatever the cause (renewals failing with 5xx, a network cut), and `lostSignal` tells the
 * apply to start nothing more. Renewals go every TTL/3, so one failed renewal leaves room for another.
 */
function startHeldLock(opts: NomadLockOptions, info: LockInfo, nomadLockId: string, ttlMs: number, sentAt: number): HeldNomadLock {
  const clock = opts.clock ?? realClock;
  const lostCtl = new AbortController();
  let released = false;
  let renewing = false;
  let deadline = sentAt + ttlMs;
  let deadlineTimer: ClockTimer | undefined;
  // The renewal in flight: dropped when the lock is lost or released, so a renewal hanging on a
  // silent server (retried for minutes) neither keeps the process alive nor runs after the end.
  let renewal: AbortController | undefined;
  const dropRenewal = () => renewal?.abort();
  const markLost = (why: string) => {
    if (lostCtl.signal.aborted || released) return;
    clock.clearTimer(timer);
    dropRenewal();
    clock.clearTimer(deadlineTimer);
    const error = lockLostError(opts.description, why);
    opts.reporter.emit({
      code: 'state.lock.lost',
      level: 'error',
      message: `${error.message}; this run starts no further changes and writes no further state`,
      data: { lockId: info.id, path: opts.lockPath },
    });
    lostCtl.abort(error);
  };
  const armDeadline = () => {
    clock.clearTimer(deadlineTimer);
    deadlineTimer = clock.setTimeout(checkDeadline, Math.max(0, deadline - clock.now())).unref();
  };
  const checkDeadline = () => {
    if (clock.now() >= deadline) markLost(`no lease renewal succeeded for ${formatDuration(ttlMs)} (the lock's TTL), so another run may hold it now`);
    else armDeadline();
  };
  const renew = async () => {
    if (renewing || released || lostCtl.signal.aborted) return;
    renewing = true;
    const sent = clock.now();
    const ctl = (renewal = new AbortController());
    try {
      const r = await opts.vars.lockRenew(opts.lockPath, nomadLockId, ctl.signal);
      if (r === 'lost') markLost('Nomad says the lease has ended or the lock changed hands');
      else if (!lostCtl.signal.aborted) {
        deadline = Math.max(deadline, sent + ttlMs);
        armDeadline();
      }
    } catch (e) {
      if (ctl.signal.aborted) return;
      // Retried at the next tick; the local deadline decides when missed renewals mean a lost lock.
      opts.reporter.emit({
        code: 'state.lock.renew-failed',
        level: 'warn',
        message: `Could not renew the state lock on ${opts.lockPath}: ${e instanceof Error ? e.message : String(e)}`,
        data: { lockId: info.id, lostInMs: Math.max(0, deadline - clock.now()) },
      });
    } finally {
      renewing = false;
      if (renewal === ctl) renewal = undefined;
    }
  };
  // unref: a held lock must never keep the process alive on its own.
  const timer = clock.setInterval(() => void renew(), Math.max(1000, Math.floor(ttlMs / 3))).unref();
  armDeadline();
  return {
    info,
    get lost() {
      // A timer can fire late on a busy event loop; the clock cannot.
      if (!lostCtl.signal.aborted && clock.now() >= deadline) checkDeadline();
      return lostCtl.signal.aborted;
    },
    lostSignal: lostCtl.signal,
    leftBehind: `it stays on Nomad until \`converge state unlock ${info.id}\` removes it; otherwise the next run can take it only ${recoveryText(opts)}`,
    async release() {
      if (released) return;
      const wasLost = lostCtl.signal.aborted || clock.now() >= deadline;
      released = true;
      clock.clearTimer(timer);
      dropRenewal();
      clock.clearTimer(deadlineTimer);
      // The holder record stays: deleting it could race with the next holder writing its own.
      const r = await opts.vars.lockRelease(opts.lockPath, nomadLockId);
      if (r === 'released') {
        opts.reporter.emit({ code: 'state.lock.released', level: 'debug', message: `Unlocked ${opts.description}`, data: { lockId: info.id } });
      } else if (wasLost) {
        opts.reporter.emit({
          code: 'state.lock.release-lost',
          level: 'warn',
          message: `The state lock on ${opts.lockPath} was no longer ours at release (its lease had ended)`,
          data: { lockId: info.id },
        });
      } else {
        // Within our lease nobody else can hold it: a release whose reply was lost and was sent again.
        opts.reporter.emit({ code: 'state.lock.released', level: 'debug', message: `Unlocked ${opts.description} (an earlier release had landed)`, data: { lockId: info.id } });
      }
    },
  };
}

/** `state.lock-lost`: refused state writes and the apply's stop reason share it. */
export function lockLostError(description: string, why: string): ConvergeError {
  return new ConvergeError('state.lock-lost', `The state lock on ${description} was lost: ${why}`, {
    source: 'remote',
    hint: 'changes made before this point are recorded; check the network path to Nomad, then run apply again: it reads the live objects and the state afresh',
  });
}

/**
 * Removes a lock left by a dead run. `id` is converge's lock id (printed in the `state.locked`
 * error); Nomad's own lock ID also works. Release needs Nomad's ID: from `Lock` (management tokens
 * only) or from the `nomadLockId` item recorded after acquire.
 */
export async function forceUnlockNomad(opts: NomadLockOptions, id: string): Promise<void> {
  const v = await opts.vars.get(opts.lockPath);
  const holder = v ? holderFromVariable(v) : undefined;
  const nomadLockId = v ? await nomadLockIdOf(opts, v, holder) : undefined;
  if (!v || (!v.Lock && !nomadLockId)) {
    throw new ConvergeError('state.not-locked', `${opts.description} is not locked`, {
      source: 'user',
      hint: 'nothing to unlock; a lock whose lease ended clears by itself',
    });
  }
  // The holder's items stay on the variable after a release: without `Lock` they describe the last holder, not a live one.
  const heldNow = v.Lock !== undefined && v.Lock !== null;
  if (holder?.id !== id && nomadLockId !== id) {
    const who = heldNow ? describeHolder(holder) : describeLastHolder(holder);
    throw new ConvergeError('state.lock-id-mismatch', `The lock on ${opts.description} has id ${holder?.id ?? '(unknown)'}, not ${id}: ${who}`, {
      source: 'user',
      hint: 'pass the id printed in the "state is locked" message; check that its holder is really gone first',
    });
  }
  if (!nomadLockId) {
    throw unlockRefused(opts, holder, 'the holder died before recording Nomad\'s lock ID, and this token cannot read it (only management tokens see Lock)');
  }
  const r = await opts.vars.lockRelease(opts.lockPath, nomadLockId);
  if (r === 'released') {
    opts.reporter.emit({ code: 'state.lock.force-released', level: 'info', message: `Removed the lock ${id} on ${opts.description}`, data: { lockId: id } });
    return;
  }
  if (r === 'not-held') {
    throw new ConvergeError('state.not-locked', `${opts.description} is not locked (the lease of ${id} has already ended)`, {
      source: 'user',
      hint: 'nothing to unlock',
    });
  }
  if (!heldNow) {
    throw new ConvergeError('state.not-locked', `${opts.description} is not locked by ${id}: ${describeLastHolder(holder)}`, { source: 'user', hint: 'nothing to unlock' });
  }
  throw unlockRefused(opts, holder, `Nomad refused to release it (409): the lease behind ${id} has ended or the lock changed hands`);
}

/** The holder items of a variable Nomad shows no lock on: who took it last, not who holds it. */
function describeLastHolder(h: LockInfo | undefined): string {
  const last = h ? `last taken by ${h.owner}@${h.host} (pid ${h.pid}) for "${h.operation}" at ${h.createdAt}, lock id ${h.id}` : 'no holder recorded';
  return `${last}; Nomad shows this token no lock on it now (released, or its lease ended; only a management token sees a held lock)`;
}

function unlockRefused(opts: NomadLockOptions, holder: LockInfo | undefined, why: string): ConvergeError {
  return new ConvergeError('state.unlock-refused', `Could not remove the lock on ${opts.description}: ${why}`, {
    source: 'remote',
    hint: `a lock whose holder died clears by itself ${recoveryText(opts)}; ` +
      `or a Nomad operator can run: nomad var lock -release … / delete ${opts.lockPath}. Holder: ${describeHolder(holder)}`,
  });
}

function lockItems(info: LockInfo): Record<string, string> {
  return {
    [K.id]: info.id,
    [K.owner]: info.owner,
    [K.host]: info.host,
    [K.pid]: String(info.pid),
    [K.operation]: info.operation,
    [K.createdAt]: info.createdAt,
  };
}

async function readHolder(vars: VariablesClient, lockPath: string): Promise<LockInfo | undefined> {
  try {
    const v = await vars.get(lockPath);
    return v ? holderFromVariable(v) : undefined;
  } catch {
    // The holder is only for the message; the lock outcome does not depend on it.
    return undefined;
  }
}

function holderFromVariable(v: WireVariable): LockInfo | undefined {
  const it = v.Items;
  if (!it?.[K.id]) return undefined;
  return {
    id: it[K.id] ?? '',
    owner: it[K.owner] ?? 'unknown',
    host: it[K.host] ?? 'unknown',
    pid: Number(it[K.pid] ?? 0),
    operation: it[K.operation] ?? 'unknown',
    createdAt: it[K.createdAt] ?? 'unknown',
  };
}

export function describeHolder(h: LockInfo | undefined): string {
  if (!h) return 'held by an unknown holder';
  return `held by ${h.owner}@${h.host} (pid ${h.pid}) for "${h.operation}" since ${h.createdAt}, lock id ${h.id}`;
}

function lockedError(opts: NomadLockOptions, holder: LockInfo | undefined): ConvergeError {
  return new ConvergeError('state.locked', `The state in ${opts.description} is locked: ${describeHolder(holder)}`, {
    source: 'user',
    hint:
      `wait for that run to finish (or pass a longer --lock-timeout). If it died, Nomad clears its lock by itself ${recoveryText(opts)} ` +
      `and the next run gets it; to remove it now: converge state unlock ${holder?.id ?? '<lock id>'}`,
  });
}

const DEFAULT_LOCK_DELAY = '15s';

/**
 * How long a dead holder's lock really lasts: Nomad's timer runs 2 x TTL after the last renewal (a grace
 * period, nomad/locks.go), then the lock waits out LockDelay (docs/reference/nomad-api.md §9). Promising only
 * the TTL sent people to `state unlock` for a lock that was about to clear.
 */
export function lockRecoveryMs(ttl: string, lockDelay = DEFAULT_LOCK_DELAY): number {
  return 2 * parseGoDuration(ttl) + parseGoDuration(lockDelay);
}

function recoveryText(opts: NomadLockOptions): string {
  const delay = opts.lockDelay ?? DEFAULT_LOCK_DELAY;
  return `within ${formatDuration(lockRecoveryMs(opts.ttl, delay))} of its last renewal (2 × the ${opts.ttl} lease, then Nomad's ${delay} lock delay)`;
}

const UNITS: Record<string, number> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Go `time.ParseDuration` subset (what Nomad accepts for Lock.TTL), to milliseconds. */
export function parseGoDuration(text: string): number {
  const re = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/gy;
  let total = 0;
  let matched = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    total += Number(m[1]) * (UNITS[m[2] ?? ''] ?? 0);
    matched = re.lastIndex;
  }
  if (text === '' || matched !== text.length) {
    throw new ConvergeError('state.nomad.bad-lock-ttl', `"${text}" is not a duration`, { source: 'user', hint: 'write it like 30s, 1m or 1m30s' });
  }
  return total;
}

/** Lock TTL bounds enforced by Nomad: 10s to 24h (400 otherwise, §9). Checked before any request. */
export function validateLockTtl(ttl: string): void {
  const ms = parseGoDuration(ttl);
  if (ms < 10_000 || ms > 86_400_000) {
    throw new ConvergeError('state.nomad.bad-lock-ttl', `The state lock TTL ${ttl} is outside Nomad's range of 10s to 24h`, {
      source: 'user',
      hint: 'use a TTL such as 30s: converge renews the lease every TTL/3 while it runs',
    });
  }
}

