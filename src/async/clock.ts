import { sleep as realSleep } from './sleep.js';

/** A pending timer of a {@link Clock}; `unref` lets a real process exit while it is still pending. */
export interface ClockTimer {
  unref(): ClockTimer;
}

/**
 * The one source of time for everything that waits or reads the time: the sandbox's run steps, lock leases and
 * replica lag; the state lock and its renewals; the HTTP pacer and Retry-After gate; run following and polling.
 * Production code uses {@link realClock}; tests pass a {@link ManualClock} (manual-clock.ts) and advance it, so a
 * 20 s lease expiry takes no real time.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch, never going backwards (fractions allowed). */
  now(): number;
  /** Waits `ms`; an aborted `signal` ends the wait early without an error (see sleep.ts). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  setTimeout(fn: () => void, ms: number): ClockTimer;
  setInterval(fn: () => void, ms: number): ClockTimer;
  /** Cancels a timeout or an interval; `undefined` is ignored. */
  clearTimer(timer: ClockTimer | undefined): void;
}

/*
 * The real clock reads the monotonic clock (performance.now) from the process's start on the wall clock, so a
 * wall-clock step (NTP) never makes a wait longer or shorter; over a CLI run it stays within milliseconds of
 * Date.now.
 */
const origin = performance.timeOrigin;

export const realClock: Clock = {
  now: () => origin + performance.now(),
  sleep: realSleep,
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  setInterval: (fn, ms) => setInterval(fn, ms),
  clearTimer: (t) => {
    if (t !== undefined) clearTimeout(t as NodeJS.Timeout);
  },
};
