/**
 * One-shot failures of one chosen request: "the nth `POST …/upgrade/run-…` answers 500", optionally late
 * (`delayMs`, so the world moves on before the client hears of it) and optionally after the model acted
 * (`acted`: the reply of a request that did its work is lost as a 5xx). The random fault rates cannot aim at
 * one request; regression tests of a single lost or failed write need this.
 */
export interface RequestFailure {
  /** HTTP method, upper case. */
  method: string;
  /** Regular expression tested against the URL path (e.g. `/upgrade/run-[^/]+$`). */
  path: string;
  /** Which matching request fails (1 = the first one from now). */
  nth: number;
  status: 500 | 503;
  /** Wait this long before answering. */
  delayMs: number;
  /** true: the request is handled first, then its answer is replaced by the 5xx (a lost reply). */
  acted: boolean;
  /**
   * Send `Retry-After: N` (whole seconds, as HTTP defines it) with the 5xx: a server's own word on when to come
   * back (docs/reference/retry-after.md). Absent unless asked: HCP Terraform documents no Retry-After.
   */
  retryAfterSeconds?: number;
}

interface Pending extends RequestFailure {
  pattern: RegExp;
  seen: number;
}

export class RequestFailures {
  private pending: Pending[] = [];

  add(f: Partial<RequestFailure> & Pick<RequestFailure, 'method' | 'path'>): RequestFailure {
    const nth = f.nth ?? 1;
    if (!Number.isInteger(nth) || nth < 1) throw new Error('nth must be a whole number from 1');
    const status = f.status ?? 500;
    if (status !== 500 && status !== 503) throw new Error('status must be 500 or 503');
    const delayMs = f.delayMs ?? 0;
    if (!Number.isFinite(delayMs) || delayMs < 0) throw new Error('delayMs must be a non-negative number of ms');
    const ra = f.retryAfterSeconds;
    if (ra !== undefined && (!Number.isInteger(ra) || ra < 0)) throw new Error('retryAfterSeconds must be a whole number of seconds from 0 (Retry-After takes no fractions)');
    const failure: RequestFailure = { method: f.method.toUpperCase(), path: f.path, nth, status, delayMs, acted: f.acted === true, ...(ra !== undefined ? { retryAfterSeconds: ra } : {}) };
    this.pending.push({ ...failure, pattern: new RegExp(f.path), seen: 0 });
    return failure;
  }

  clear(): void {
    this.pending = [];
  }

  list(): RequestFailure[] {
    return this.pending.map(({ pattern: _p, seen: _s, ...f }) => f);
  }

  /** The failure this request meets, if any; each failure fires once, then is gone. */
  take(method: string, path: string): RequestFailure | undefined {
    for (const p of this.pending) {
      if (p.method !== method || !p.pattern.test(path)) continue;
      p.seen += 1;
      if (p.seen < p.nth) continue;
      this.pending = this.pending.filter((x) => x !== p);
      const { pattern: _p, seen: _s, ...f } = p;
      return f;
    }
    return undefined;
  }
}
