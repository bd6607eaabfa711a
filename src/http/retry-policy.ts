/**
 * What is retried and how long to wait: undici's policy (its RetryHandler defaults), in one place.
 * - Statuses 429, 500, 502, 503, 504.
 * - Socket errors: the codes below plus undici's timeouts.
 * - Only idempotent requests, with two exceptions where the server cannot have acted on the
 *   request: a 429 (the request was rejected before processing: Nomad and HCP Terraform both
 *   answer it from rate limiting in front of the handler, docs/reference/hcp-terraform-api.md §8) and a failure
 *   to connect at all (ECONNREFUSED / connect timeout: nothing was sent). A POST that may have
 *   reached the server is never repeated automatically; callers re-read by natural key instead.
 */
export const RETRY_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504]);

export const RETRY_ERROR_CODES: ReadonlySet<string> = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ENOTFOUND',
  'ENETDOWN',
  'ENETUNREACH',
  'EHOSTDOWN',
  'EHOSTUNREACH',
  'EPIPE',
  'ETIMEDOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
]);

/** Errors meaning the request never left this process (safe to repeat even for a POST). */
const NOT_SENT_CODES: ReadonlySet<string> = new Set(['ECONNREFUSED', 'UND_ERR_CONNECT_TIMEOUT', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH']);

export function errorCode(e: unknown): string | undefined {
  let cur: unknown = e;
  for (let depth = 0; depth < 4 && typeof cur === 'object' && cur !== null; depth++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

export function isRetryableStatus(status: number, idempotent: boolean): boolean {
  if (status === 429) return true;
  return idempotent && RETRY_STATUSES.has(status);
}

/** The request cannot have reached the server: repeating it is safe whatever its method. */
export function wasNotSent(code: string | undefined): boolean {
  return code !== undefined && NOT_SENT_CODES.has(code);
}

export function isRetryableError(code: string | undefined, idempotent: boolean): boolean {
  if (code === undefined || !RETRY_ERROR_CODES.has(code)) return false;
  return idempotent || NOT_SENT_CODES.has(code);
}

/** Longest server-requested pause we honour; beyond it we still wait this long, then try. */
export const MAX_SERVER_WAIT_MS = 5 * 60_000;

/** `Retry-After` (seconds or an HTTP date) in ms: a server's own word on when to come back, for a 429 or a 503. */
/** `now`: the client's clock (epoch ms), against which an HTTP-date is measured. */
export function retryAfterMs(headers: Record<string, string>, now: number): number | undefined {
  const ra = headers['retry-after'];
  if (ra === undefined || ra.trim() === '') return undefined;
  const secs = Number(ra);
  if (Number.isFinite(secs)) return clampWait(secs * 1000);
  const at = Date.parse(ra);
  return Number.isFinite(at) ? clampWait(at - now) : undefined;
}

/**
 * How long a 429 asks us to wait, in ms: `Retry-After`, else `X-RateLimit-Reset` (float seconds until the
 * rate-limit window resets; HCP Terraform, docs/reference/hcp-terraform-api.md §8). The reset is about the rate limit
 * only: it says nothing about when a 5xx is worth another try (see serverErrorBackoffMs).
 */
export function serverWaitMs(headers: Record<string, string>, now: number): number | undefined {
  const ra = retryAfterMs(headers, now);
  if (ra !== undefined) return ra;
  const reset = headers['x-ratelimit-reset'];
  if (reset !== undefined && reset.trim() !== '') {
    const secs = Number(reset);
    if (Number.isFinite(secs)) return clampWait(secs * 1000);
  }
  return undefined;
}

function clampWait(ms: number): number {
  return Math.min(MAX_SERVER_WAIT_MS, Math.max(0, Math.ceil(ms)));
}

/**
 * Wait before repeating a request that met a 5xx: go-tfe's linear jitter, 700–900 ms × the retry number
 * (docs/reference/hcp-terraform-api.md §8), capped at `maxMs`. `retry` counts from 1.
 */
export function serverErrorBackoffMs(retry: number, maxMs: number, random: () => number = Math.random): number {
  return Math.min(maxMs, Math.round((700 + random() * 200) * Math.max(1, retry)));
}

/** Capped exponential backoff with "equal jitter": half fixed, half random. `retry` counts from 1. */
export function backoffMs(retry: number, minMs: number, maxMs: number, random: () => number = Math.random): number {
  const base = Math.min(maxMs, minMs * 2 ** Math.max(0, retry - 1));
  return Math.round(base / 2 + random() * (base / 2));
}
