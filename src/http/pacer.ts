/**
 * Token-bucket pacer (GCRA form): keeps a client at `rate` requests per second with a small burst.
 * Callers are served in call order; each waits only for its own slot, so no timer queue is needed.
 * The rate can be lowered at run time from `X-RateLimit-Limit` (reference tfc-api.md §8: the
 * published limit is visible in that header).
 */
export class Pacer {
  private intervalMs: number;
  /** Theoretical arrival time of the next request (monotonic ms). */
  private tat = 0;

  constructor(
    rate: number,
    private readonly burst = 1,
  ) {
    this.intervalMs = 1000 / rate;
  }

  get rate(): number {
    return 1000 / this.intervalMs;
  }

  /** Lower (never raise) the pace, e.g. when the server publishes a smaller limit than configured. */
  lowerTo(rate: number): void {
    if (rate > 0 && rate < this.rate) this.intervalMs = 1000 / rate;
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
