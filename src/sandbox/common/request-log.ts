/** Every request a simulator answered, for tests to assert on ("a plan sends no writes"). */
export interface RequestLogEntry {
  service: 'nomad' | 'tfe';
  method: string;
  /** Path without the query string. */
  path: string;
  /** Raw query string without `?` ('' when none). */
  query: string;
  status: number;
  /** Milliseconds spent answering, including injected latency. */
  ms: number;
  /** ISO time the request arrived. */
  at: string;
  /**
   * The request body as received, for writes that have one (tests compare what was sent with what
   * a saved plan said would be sent). Holds secrets exactly as sent: a test instrument, never printed.
   */
  body?: string;
  /** Fault injected instead of (or on top of) the real answer, if any. */
  fault?: 'status-429' | 'status-500' | 'status-503' | 'reset' | 'fail-write' | 'rate-limit' | 'fail-renew' | 'lost-reply';
}

export class RequestLog {
  private readonly items: RequestLogEntry[] = [];

  add(entry: RequestLogEntry): void {
    this.items.push(entry);
  }

  entries(filter?: Partial<Pick<RequestLogEntry, 'service' | 'method'>>): RequestLogEntry[] {
    return this.items.filter(
      (e) => (filter?.service === undefined || e.service === filter.service) && (filter?.method === undefined || e.method === filter.method),
    );
  }

  /** The entries the control API serves: bodies left out, since they hold secrets as sent. */
  summaries(filter?: Partial<Pick<RequestLogEntry, 'service' | 'method'>>): Omit<RequestLogEntry, 'body'>[] {
    return this.entries(filter).map(({ body: _body, ...rest }) => rest);
  }

  /** Requests that change something (anything but GET/HEAD). */
  writes(service?: 'nomad' | 'tfe'): RequestLogEntry[] {
    return this.items.filter((e) => e.method !== 'GET' && e.method !== 'HEAD' && (service === undefined || e.service === service));
  }

  clear(): void {
    this.items.length = 0;
  }

  get size(): number {
    return this.items.length;
  }
}
