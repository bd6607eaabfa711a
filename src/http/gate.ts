import { realClock, type Clock } from '../async/clock.js';

/**
 * The shared Retry-After gate of one origin: a 429 (or `X-RateLimit-Remaining: 0`) closes it until
 * a point in time, and every request to that origin waits there before it is sent, so one 429
 * pauses the whole host instead of each request discovering the limit by itself (Renovate's habit).
 */
export class HostGate {
  private openAt = 0;

  constructor(readonly clock: Clock = realClock) {}

  /** Keep the gate closed for at least `ms` from now. */
  closeFor(ms: number, now = this.clock.now()): void {
    if (ms > 0) this.openAt = Math.max(this.openAt, now + ms);
  }

  /** Milliseconds until the gate opens (0 when open). */
  remaining(now = this.clock.now()): number {
    return Math.max(0, this.openAt - now);
  }

  /** Waits until the gate opens, or until `signal` aborts. */
  async wait(signal?: AbortSignal): Promise<void> {
    // Loop: the gate may be closed further while we sleep (another 429 arrives).
    for (let ms = this.remaining(); ms > 0 && !signal?.aborted; ms = this.remaining()) await this.clock.sleep(ms, signal);
  }
}
