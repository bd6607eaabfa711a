import type { Clock } from '../async/clock.js';
import type { Dispatcher } from 'undici';
import type { Reporter } from '../model/events.js';
import type { HttpLimits } from './limits.js';
import type { ServiceIdentity } from './wrong-server.js';

/**
 * The one HTTP layer. Per origin: an undici Pool, a pacer at the published rate limit, a shared
 * Retry-After gate (one 429 pauses the whole host), and p-retry with undici's policy (429, 5xx and
 * socket errors; idempotent requests only; capped exponential backoff with jitter).
 */
export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path relative to the client's base URL, e.g. `/v1/acl/auth-methods`. */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
  /** Serialised as JSON unless already a string. */
  body?: unknown;
  /**
   * Defaults: GET/PUT/DELETE idempotent, POST/PATCH not. Non-idempotent requests are retried only when
   * the server cannot have acted on them: a 429, or a connection that never opened (see retry-policy.ts).
   */
  idempotent?: boolean;
  /** For messages and events: what this request is about, e.g. `NomadAuthMethod/okta`. */
  subject?: string;
  /**
   * For a non-idempotent request: a read by natural key that finds what a lost attempt did (docs/architecture.md "Rules the code keeps",
   * "a non-idempotent create is retried only after a read by natural key finds nothing"). After a failure
   * that may have reached the server (a 5xx, a reset connection) the HTTP layer calls it before deciding:
   * a response (the object the attempt made, in the shape the request answers with) is returned in place
   * of the failed attempt; `undefined` (nothing there) lets the request be sent again; a throw ends the
   * retries with the original failure. Without it a non-idempotent request is never repeated after it
   * may have reached the server.
   */
  readBack?: () => Promise<HttpResponse | undefined>;
  /**
   * A 5xx the caller recognises as the server's final word, not a passing fault: returned at once,
   * never repeated (Nomad's uncoded `default ACL auth method already exists` race is a 500 that no
   * retry can change, docs/reference/nomad-api.md §4).
   */
  isFinal?: (res: HttpResponse) => boolean;
  /**
   * A family of endpoints with a ration of its own, narrower than the host's limit (HCP Terraform's run lists: 30
   * a minute where the host allows 30 a second). Its answers' `X-RateLimit-*` headers describe that ration, so
   * they never move the host's pace, and its 429s close a gate of the family's own: the wait falls on the
   * family's next requests only, never on every other request to the host.
   */
  rateScope?: string;
  /**
   * Ends the request when aborted: the attempt in flight is dropped (its connection closed), no retry
   * or wait follows, and the request rejects with `http.aborted`. A request nobody needs any more (a
   * lock renewal after the lock was lost or released) must not keep the process alive.
   */
  signal?: AbortSignal;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  /** Raw body text ('' when empty). */
  text: string;
}

export interface HttpClient {
  readonly baseUrl: string;
  /** Resolves with the final response for any HTTP status (after retries); rejects on network failure after retries. */
  request(req: HttpRequest): Promise<HttpResponse>;
  stats(): HttpStats;
  close(): Promise<void>;
}

export interface HttpStats {
  /** Attempts sent over the wire (retries and followed redirects included), so it matches a server's request log. */
  requests: number;
  /** Attempts repeated by the retry policy (each also emitted as an `http.retry` event). */
  retries: number;
  /** 429 answers seen (each closes the origin's Retry-After gate). */
  status429: number;
}

export interface TlsOptions {
  caCertFile?: string;
  clientCertFile?: string;
  clientKeyFile?: string;
  skipVerify?: boolean;
}

export interface HttpClientOptions {
  baseUrl: string;
  /** Auth and fixed headers (e.g. `X-Nomad-Token`); registered with the redactor by the caller. */
  headers?: Record<string, string>;
  tls?: TlsOptions;
  /** Requests per second this client keeps to (HCP Terraform: 30). Unset: no pacing. */
  rateLimitPerSecond?: number;
  /** Max concurrent connections per origin. */
  connections?: number;
  retry?: { retries?: number; minTimeoutMs?: number; maxTimeoutMs?: number };
  timeoutMs?: number;
  /** Body size cap, per-attempt deadline, retry budget (limits.ts); defaults `HTTP_LIMIT_DEFAULTS`. */
  limits?: Partial<HttpLimits>;
  /** For tests: inject a dispatcher instead of a Pool. */
  dispatcher?: Dispatcher;
  reporter?: Reporter;
  /**
   * The service this client talks to. When given, an answer that is a web page (below HTTP 500) is an
   * `http.wrong-server` error naming the address and this setting, instead of a response the caller
   * would read as the API's own (a 404 page taken as "no such object").
   */
  service?: ServiceIdentity;
  /** Pacing, Retry-After waits, backoff and deadlines (tests pass a ManualClock). Default: the real clock. */
  clock?: Clock;
}
