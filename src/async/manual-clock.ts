import type { Clock, ClockTimer } from './clock.js';

interface Entry extends ClockTimer {
  due: number;
  /** Interval period; undefined for a one-shot timer. */
  every: number | undefined;
  fn: () => void;
  seq: number;
}

/** Lets pending I/O callbacks and promise chains run (loopback requests answered by a simulator in this process). */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A clock that moves only when told: `advance(ms)` fires every timer that falls due on the way, in order, each
 * at its own time, and lets the process's pending work run between them. One instance can drive a simulator
 * and the client in the same process, so a test of a 20 s lease takes milliseconds.
 */
export class ManualClock implements Clock {
  private t: number;
  private seq = 0;
  private readonly timers = new Set<Entry>();

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.t = start;
  }

  now(): number {
    return this.t;
  }

  /** Timers waiting to fire (sleepers included). */
  get pending(): number {
    return this.timers.size;
  }

  /** When the earliest pending timer falls due; undefined when none is pending. */
  get nextDue(): number | undefined {
    return this.earliest()?.due;
  }

  setTimeout(fn: () => void, ms: number): ClockTimer {
    return this.add(fn, ms, undefined);
  }

  setInterval(fn: () => void, ms: number): ClockTimer {
    return this.add(fn, ms, Math.max(1, ms));
  }

  clearTimer(timer: ClockTimer | undefined): void {
    if (timer) this.timers.delete(timer as Entry);
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const done = () => {
        this.clearTimer(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = this.setTimeout(done, ms);
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  /** Moves time forward by `ms`, firing what falls due, each at its own time. */
  async advance(ms: number): Promise<void> {
    const target = this.t + Math.max(0, ms);
    await turn();
    for (;;) {
      const next = this.earliest();
      if (!next || next.due > target) break;
      this.t = Math.max(this.t, next.due);
      if (next.every === undefined) this.timers.delete(next);
      else next.due += next.every;
      next.fn();
      await turn();
      await turn();
    }
    this.t = target;
    await turn();
  }

  /**
   * Moves time forward by `ms` in steps of `stepMs`, letting pending work run after each: for waits that send
   * requests between timers (lock renewals, polls), so each step's requests are answered at about their time.
   */
  async advanceInSteps(ms: number, stepMs: number): Promise<void> {
    for (let left = ms; left > 0; left -= stepMs) {
      await this.advance(Math.min(stepMs, left));
      await this.settle();
    }
  }

  /**
   * Runs `work` to its end on this clock: lets pending work run until `work` ends or parks on a new timer (a
   * sleep), then moves time to the earliest timer, and again. Time moves only once `work` waits, so a loop of
   * requests and sleeps (lock polling) sees each sleep end at its own time, and the timers of others (a held
   * lock's renewals) fire only when their time comes. Work that waits on no new timer of its own gets time moved
   * after a long settle, so it cannot hang. A watchdog the work arms on the same clock (the HTTP client's response
   * deadline) counts as parking too and would fire early: drive such work with `advanceInSteps` instead.
   */
  async run<T>(work: Promise<T>): Promise<T> {
    let done = false;
    const watched = work.finally(() => {
      done = true;
    });
    watched.catch(() => undefined);
    while (!done) {
      const seq = this.seq;
      await this.settle(() => done || this.seq > seq, 20_000);
      const next = this.earliest();
      if (!done && next) await this.advance(next.due - this.t);
    }
    return watched;
  }

  /** Lets pending work run without moving time: until `until()` holds or `turns` run out. */
  async settle(until: () => boolean = () => false, turns = 200): Promise<void> {
    for (let i = 0; i < turns && !until(); i++) await turn();
  }

  private add(fn: () => void, ms: number, every: number | undefined): Entry {
    const entry: Entry = {
      due: this.t + Math.max(0, ms),
      every,
      fn,
      seq: this.seq++,
      unref: () => entry,
    };
    this.timers.add(entry);
    return entry;
  }

  private earliest(): Entry | undefined {
    let best: Entry | undefined;
    for (const e of this.timers) if (!best || e.due < best.due || (e.due === best.due && e.seq < best.seq)) best = e;
    return best;
  }
}
