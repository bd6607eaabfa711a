import type { Dispatcher } from 'undici';
import type { HostGate } from './gate.js';
import type { Pacer } from './pacer.js';
import { flattenHeaders } from './request-shape.js';
import type { HttpRequest, HttpResponse, HttpStats } from './types.js';

/**
 * Sends one attempt to the origin: through the Retry-After gate and the pacer, counted in the stats,
 * over the origin's dispatcher. Knows nothing of retries or redirects.
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
  ) {}

  /** `scopeGate`: the gate of the request's rationed endpoint family (HttpRequest.rateScope), passed first. */
  async send(method: HttpRequest['method'], path: string, headers: Record<string, string>, body: string | undefined, scopeGate?: HostGate): Promise<HttpResponse> {
    await scopeGate?.wait();
    await this.gate.wait();
    if (this.pacer) {
      await this.pacer.acquire();
      // A 429 elsewhere may have closed the gate while this request waited for its slot.
      await this.gate.wait();
    }
    this.stats.requests += 1;
    this.inFlight += 1;
    try {
      const res = await this.dispatcher.request({ origin: this.origin, path, method, headers, ...(body !== undefined ? { body } : {}) });
      const text = await res.body.text();
      return { status: res.statusCode, headers: flattenHeaders(res.headers), text };
    } finally {
      this.inFlight -= 1;
    }
  }
}
