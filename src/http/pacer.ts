import { realClock, type Clock, type ClockTimer } from '../async/clock.js';

/**
 * Token-bucket pacer (GCRA form): keeps a client at a server's published rate limit with a small burst.
 * Callers are served in call order; each waits only for its own slot, so no timer queue is needed.
 *
 * The limit follows `X-RateLimit-Limit` (docs/reference/hcp-terraform-api.md §8: the limit is visible in that header, and
 * go-tfe sets its client-side limiter from it, whatever the value: HCP Terraform says 30, a Terraform
 * Enterprise operator may configure another). The rate given at construction is the pace until a server
 * has said otherwise.
 *
 * Why not exactly 1000/limit ms apart: the server counts a sliding one-second window at the moment each request
 * *arrives* (reference §8; the sandbox models it so), and arrival times jitter (timers fire late, event loops
 * stall, the network varies): the 31st request of a run now and then lands inside the window of the 1st and is
 * answered 429. acquire() sends a request only once those `limit` places back and earlier are known to have arrived
 * more than a second ago (their answers came). reserve() (the plain token bucket) spreads `limit` requests over one
 * second plus `guardMs` instead.
 */
export class Pacer {
  private intervalMs = 0;
  private limit = 0;
  /** Theoretical arrival time of the next request (monotonic ms). */
  private tat = 0;

  constructor(
    rate: number,
    private readonly burst = 1,
    private readonly guardMs = DEFAULT_GUARD_MS,
    private readonly clock: Clock = realClock,
  ) {
    this.follow(rate);
  }

  /** The advertised (or configured) limit being followed, requests per second. */
  get rate(): number {
    return this.limit;
  }

  /** Requests per second actually sent at most (the limit less the jitter guard). */
  get pace(): number {
    return 1000 / this.intervalMs;
  }

  /** Pace at this limit (requests per second), e.g. the value of the latest `X-RateLimit-Limit`. */
  follow(limit: number): void {
    if (!Number.isFinite(limit) || limit <= 0 || limit === this.limit) return;
    this.limit = limit;
    this.intervalMs = (1000 + this.guardMs) / limit;
    // A new limit starts a new schedule: the next release one new interval after the last.
    this.nextDue = this.lastRelease + 1000 / limit;
  }

  /** Waiting senders, oldest first, and whether a timer will release the next. */
  private readonly queue: ((slot: PacerSlot) => void)[] = [];
  private timerAt = Infinity;
  private timer: ClockTimer | undefined;
  /** When the last sender was released, and the pace's schedule for the next (monotonic ms). */
  private lastRelease = -Infinity;
  private nextDue = -Infinity;
  /** Releases so far. */
  private released = 0;
  /** Releases not yet folded into `arrivedBy`, oldest first (from `head`). */
  private readonly records: SlotRecord[] = [];
  private head = 0;
  /** Every release before `records[head]` reached the server by this moment (monotonic ms). */
  private arrivedBy = -Infinity;

  /**
   * Resolves when the caller may send, with its slot: the caller says when the request went (`sent`, when it waited
   * at a gate after its slot) and when its answer came or it was dropped (`answered`). Two rules:
   *
   * - the window rule: every request sent `limit` places back or earlier must have reached the server more than one
   *   second ago. A request reached it at the latest when its answer came, so the moment of that answer counts (a
   *   request still unanswered STALL_MS after its send is taken to have arrived then). The server counts a sliding
   *   second of arrivals (reference §8), so a request is never the `limit + 1`-th of its second, whatever the
   *   jitter of timers, event loops and the network: only the answers' latency is lost (30 requests a second plus
   *   the latency, 28.5 a second at 50 ms, where the old fixed 100 ms guard gave 27.3, and less on a loaded machine,
   *   25, with a 429 now and then when a request was delayed by more than the guard);
   * - the pace: `limit` a second spread evenly, on a schedule (not one interval after each release, which lost
   *   every late timer's lateness), so a release a few intervals late is caught up, the next ones going at 3/4 of
   *   the interval; after an idle time the schedule starts again.
   */
  acquire(): Promise<PacerSlot> {
    return new Promise((resolve) => {
      this.queue.push(resolve);
      this.release();
    });
  }

  private release(): void {
    while (this.queue.length > 0) {
      const now = this.clock.now();
      const gap = 1000 / this.limit;
      const due = Math.max(this.nextDue, this.lastRelease + MIN_SPACING * gap, this.windowDue());
      if (now < due) {
        this.wakeAt(due);
        return;
      }
      this.lastRelease = now;
      // Behind the schedule by a late timer: keep it (caught up). Idle for longer: start it again from now.
      this.nextDue = (now - this.nextDue <= CATCH_UP_INTERVALS * gap ? this.nextDue : now) + gap;
      const rec: SlotRecord = { seq: this.released++, sentAt: now, answeredAt: undefined };
      this.records.push(rec);
      (this.queue.shift() as (slot: PacerSlot) => void)({
        sent: () => {
          rec.sentAt = this.clock.now();
        },
        answered: () => {
          if (rec.answeredAt !== undefined) return;
          rec.answeredAt = this.clock.now();
          // An answer may be what the next sender waits for.
          this.release();
        },
      });
    }
  }

  /** The window rule's earliest moment for the next release (see acquire). */
  private windowDue(): number {
    const last = this.released - this.limit;
    // Fold the answered releases of the window's past into arrivedBy.
    while (this.head < this.records.length) {
      const rec = this.records[this.head] as SlotRecord;
      if (rec.seq > last || rec.answeredAt === undefined) break;
      this.arrivedBy = Math.max(this.arrivedBy, rec.answeredAt);
      this.head += 1;
    }
    if (this.head > 1024) {
      this.records.splice(0, this.head);
      this.head = 0;
    }
    let by = this.arrivedBy;
    for (let i = this.head; i < this.records.length; i++) {
      const rec = this.records[i] as SlotRecord;
      if (rec.seq > last) break;
      by = Math.max(by, rec.answeredAt ?? rec.sentAt + STALL_MS);
    }
    return by + 1000 + WINDOW_MARGIN_MS;
  }

  private wakeAt(at: number): void {
    if (this.timer !== undefined && this.timerAt <= at) return;
    if (this.timer !== undefined) this.clock.clearTimer(this.timer);
    this.timerAt = at;
    this.timer = this.clock.setTimeout(
      () => {
        this.timer = undefined;
        this.timerAt = Infinity;
        this.release();
      },
      Math.max(0, at - this.clock.now()),
    );
  }

  /** Milliseconds the caller must wait before sending; reserves the slot. */
  reserve(now = performance.now()): number {
    const tau = (this.burst - 1) * this.intervalMs;
    const tat = Math.max(this.tat, now);
    const wait = Math.max(0, tat - tau - now);
    this.tat = tat + this.intervalMs;
    return wait;
  }
}

/**
 * 100 ms over one second: 30 req/s becomes one request every 36.7 ms (27.3 req/s, 91 % of the limit). With
 * 50 ms (95 %) a converged 2 000-workspace plan against the sandbox still met 5 429s in 2 076 requests:
 * arrival times jittered by more than 50 ms (not traced; likely the simulator or converge stalling on a busy
 * 2-core machine).
 */
export const DEFAULT_GUARD_MS = 100;

/** Milliseconds added to the window rule's second: the server's clock counts whole milliseconds. */
const WINDOW_MARGIN_MS = 2;
/** A request unanswered this long after its send is taken to have reached the server by then (a hung request must not stop every other). */
const STALL_MS = 2000;
/** The shortest spacing of two releases, as a share of the pace's interval (a late release is caught up no faster). */
const MIN_SPACING = 0.75;
/** How far behind its schedule (in intervals of the pace) the pacer catches up; further behind, it was idle. */
const CATCH_UP_INTERVALS = 3;

/** A sender's slot: `sent` when the request really goes (after a gate), `answered` when its answer came or it was dropped. */
export interface PacerSlot {
  sent(): void;
  answered(): void;
}

interface SlotRecord {
  seq: number;
  sentAt: number;
  answeredAt: number | undefined;
}
