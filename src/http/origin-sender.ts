import { realClock, type Clock } from '../async/clock.js';
import type { Dispatcher } from 'undici';
import type { HostGate } from './gate.js';
import { ResponseLimitExceeded, type HttpLimits } from './limits.js';
import type { Pacer } from './pacer.js';
import { flattenHeaders } from './request-shape.js';
import type { HttpRequest, HttpResponse, HttpStats } from './types.js';

/** The host's gate stays closed past the request's retry budget: waiting would overrun it. */
export class GateBeyondBudget extends Error {
  constructor(readonly waitMs: number) {
    super('the host asked to wait beyond the retry budget');
  }
}

/**
 * Sends one attempt to the origin: through the Retry-After gate and the pacer, counted in the stats,
 * over the origin's dispatcher. Knows nothing of retries or redirects. The answer is bounded: its body
 * is read up to `maxBodyBytes` and the whole exchange must end within `deadlineMs` (limits.ts);
 * past either the attempt is abandoned (connection closed) with a `ResponseLimitExceeded`.
 */
export class OriginSender {
  /** Attempts sent and not yet answered (read by the rate-limit feed). */
  inFlight = 0;
  readonly stats: HttpStats = { requests: 0, retries: 0, status429: 0 };

  constructor(
    private readonly origin: string,
    private readonly dispatcher: Dispatcher,
    readonly gate: HostGate,
    readonly pacer: Pacer | undefined,
    private readonly limits: Pick<HttpLimits, 'maxBodyBytes' | 'deadlineMs'>,
    private readonly clock: Clock = realClock,
  ) {}

  /** `notAfter` (the clock's time): a gate that stays closed past it fails the attempt at once. */
  /** `signal`: the caller's abort (HttpRequest.signal); the attempt is dropped at once when it fires. */
  /** `scopeGate`: the gate of the request's rationed endpoint family (HttpRequest.rateScope), passed first. */
  async send(
    method: HttpRequest['method'],
    path: string,
    headers: Record<string, string>,
    body: string | undefined,
    notAfter = Infinity,
    signal?: AbortSignal,
    scopeGate?: HostGate,
  ): Promise<HttpResponse> {
    await this.passGate(notAfter, signal, scopeGate);
    // The pacer's slot: told when the request really goes and when its answer came (or it never went).
    const slot = this.pacer ? await this.pacer.acquire() : undefined;
    try {
      // A 429 elsewhere may have closed the gate while this request waited for its slot.
      if (slot) await this.passGate(notAfter, signal, scopeGate);
      signal?.throwIfAborted();
    } catch (e) {
      slot?.answered();
      throw e;
    }
    slot?.sent();
    this.stats.requests += 1;
    this.inFlight += 1;
    const deadline = new AbortController();
    const timer = this.clock.setTimeout(() => deadline.abort(new ResponseLimitExceeded('CONVERGE_DEADLINE', this.limits.deadlineMs)), this.limits.deadlineMs);
    try {
      const abort = signal ? AbortSignal.any([deadline.signal, signal]) : deadline.signal;
      const res = await this.dispatcher.request({ origin: this.origin, path, method, headers, signal: abort, ...(body !== undefined ? { body } : {}) });
      // The server counted the request before it answered: its status line is here.
      slot?.answered();
      const text = await readBounded(res, this.limits.maxBodyBytes);
      return { status: res.statusCode, headers: flattenHeaders(res.headers), text };
    } catch (e) {
      // undici rejects with the abort reason or its own abort error: either way it was the deadline.
      if (deadline.signal.aborted && deadline.signal.reason instanceof ResponseLimitExceeded) throw deadline.signal.reason;
      throw e;
    } finally {
      slot?.answered();
      this.clock.clearTimer(timer);
      this.inFlight -= 1;
    }
  }

  private async passGate(notAfter: number, signal: AbortSignal | undefined, scopeGate: HostGate | undefined): Promise<void> {
    for (const gate of scopeGate ? [scopeGate, this.gate] : [this.gate]) {
      const wait = gate.remaining();
      if (wait > 0 && this.clock.now() + wait > notAfter) throw new GateBeyondBudget(wait);
      await gate.wait(signal);
    }
  }
}

/** The body as text, read chunk by chunk up to `max` bytes; a longer one is dropped (its socket closed) unread. */
async function readBounded(res: Dispatcher.ResponseData, max: number): Promise<string> {
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > max) {
    res.body.destroy();
    throw new ResponseLimitExceeded('CONVERGE_BODY_TOO_LARGE', max);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) {
      res.body.destroy();
      throw new ResponseLimitExceeded('CONVERGE_BODY_TOO_LARGE', max);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}
