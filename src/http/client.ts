import pRetry from 'p-retry';
import type { Dispatcher } from 'undici';
import { ConvergeError } from '../diagnostics/errors.js';
import { formatDuration } from '../model/duration-text.js';
import type { Reporter } from '../model/events.js';
import { HostGate, sleep } from './gate.js';
import { Pacer } from './pacer.js';
import { createPool } from './pool.js';
import { backoffMs, errorCode, isRetryableError, isRetryableStatus, retryAfterMs, serverErrorBackoffMs, serverWaitMs, wasNotSent } from './retry-policy.js';
import { networkHint } from './network-hints.js';
import { isWebPage, wrongServerError } from './wrong-server.js';
import type { HttpClient, HttpClientOptions, HttpRequest, HttpResponse, HttpStats } from './types.js';

export const HTTP_DEFAULTS = {
  retries: 6,
  minTimeoutMs: 100,
  maxTimeoutMs: 5000,
  timeoutMs: 30_000,
  connections: 8,
} as const;

const MAX_REDIRECTS = 5;

/** A response whose status the policy retries; carried through p-retry, returned as-is when retries run out. */
class RetryableResponse extends Error {
  constructor(readonly response: HttpResponse) {
    super(`HTTP ${response.status}`);
  }
}

/** A socket-level failure (no response). */
class NetworkFailure extends Error {
  constructor(
    readonly code: string | undefined,
    readonly original: unknown,
  ) {
    super(code ?? (original instanceof Error ? original.message : String(original)));
  }
}

/**
 * The one HTTP layer (see types.ts). One client serves one origin (its base URL): an undici Pool,
 * a pacer, the origin's Retry-After gate, and the retry policy of retry-policy.ts.
 *
 * The gate belongs to the client: every provider builds one client per remote service, so the whole
 * host pauses for a 429 seen by any of its requests. Two clients to the same host (the Nomad provider
 * and the Nomad state backend) pace separately; they rarely run at the same time.
 */
export function createHttpClient(opts: HttpClientOptions): HttpClient {
  let base: URL;
  try {
    base = new URL(opts.baseUrl);
  } catch (e) {
    throw new ConvergeError('http.bad-address', `not a valid URL: ${opts.baseUrl}`, {
      source: 'user',
      hint: 'give a full address such as https://nomad.example.com:4646',
      cause: e,
    });
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') {
    throw new ConvergeError('http.bad-address', `unsupported scheme ${base.protocol} in ${base.origin}`, {
      source: 'user',
      hint: 'use an http:// or https:// address',
    });
  }
  const origin = base.origin;
  const basePath = base.pathname.replace(/\/+$/, '');
  const timeoutMs = opts.timeoutMs ?? HTTP_DEFAULTS.timeoutMs;
  const retries = opts.retry?.retries ?? HTTP_DEFAULTS.retries;
  const minTimeoutMs = opts.retry?.minTimeoutMs ?? HTTP_DEFAULTS.minTimeoutMs;
  const maxTimeoutMs = opts.retry?.maxTimeoutMs ?? HTTP_DEFAULTS.maxTimeoutMs;
  const ownsDispatcher = opts.dispatcher === undefined;
  const dispatcher: Dispatcher =
    opts.dispatcher ??
    createPool(origin, {
      connections: opts.connections ?? HTTP_DEFAULTS.connections,
      timeoutMs,
      ...(opts.tls ? { tls: opts.tls } : {}),
    });
  const pacer = opts.rateLimitPerSecond !== undefined && opts.rateLimitPerSecond > 0 ? new Pacer(opts.rateLimitPerSecond) : undefined;
  const gate = new HostGate();
  const reporter: Reporter | undefined = opts.reporter;
  const stats: HttpStats = { requests: 0, retries: 0, status429: 0 };
  let warnedPlaintext = false;
  let closed = false;
  /** Attempts sent and not yet answered (read by the rate-limit feedback). */
  let inFlight = 0;

  function warnPlaintext(headers: Record<string, string>): void {
    if (warnedPlaintext || base.protocol !== 'http:' || isLoopback(base.hostname)) return;
    if (!Object.keys(headers).some(isTokenHeader)) return;
    warnedPlaintext = true;
    reporter?.emit({
      code: 'http.plaintext-token',
      level: 'warn',
      message: `sending a token over plain http:// to ${origin}; anyone on the network path can read it. Use https://`,
      data: { origin },
    });
  }

  /**
   * Reads X-RateLimit-* so converge slows down before the server has to answer 429: the pace follows
   * the limit, and an answer saying the window is (about to be) full closes the gate until it moves.
   */
  function feedRateLimit(headers: Record<string, string>): void {
    const limit = Number(headers['x-ratelimit-limit']);
    // The window of X-RateLimit-Limit is not named by the header; HCP Terraform's is one second
    // (reference tfc-api.md §8). Like go-tfe, follow the advertised value (a TFE operator may set another);
    // it only moves a pace the caller asked for, never invents one.
    if (pacer && Number.isFinite(limit) && limit > 0) pacer.follow(limit);
    const remainingHeader = headers['x-ratelimit-remaining'];
    if (remainingHeader === undefined || remainingHeader.trim() === '') return;
    const remaining = Number(remainingHeader);
    // The requests already on their way will take slots this answer still counts as free: when they
    // can use up what is left, wait for the window to move (X-RateLimit-Reset) instead of earning a 429.
    if (!Number.isFinite(remaining) || remaining > inFlight) return;
    let resetSecs = Number(headers['x-ratelimit-reset']);
    if (!Number.isFinite(resetSecs) || resetSecs <= 0) return;
    // Some services send an epoch time instead of seconds-until-reset.
    if (resetSecs > 1e9) resetSecs = resetSecs - Date.now() / 1000;
    gate.closeFor(Math.min(resetSecs * 1000, 60_000));
  }

  async function sendOnce(method: HttpRequest['method'], path: string, headers: Record<string, string>, body: string | undefined): Promise<HttpResponse> {
    await gate.wait();
    if (pacer) {
      await pacer.acquire();
      // A 429 elsewhere may have closed the gate while this request waited for its slot.
      await gate.wait();
    }
    stats.requests += 1;
    inFlight += 1;
    try {
      const res = await dispatcher.request({ origin, path, method, headers, ...(body !== undefined ? { body } : {}) });
      const text = await res.body.text();
      return { status: res.statusCode, headers: flattenHeaders(res.headers), text };
    } finally {
      inFlight -= 1;
    }
  }

  /** Follows same-origin redirects; refuses others so the token never leaves its origin. */
  async function sendFollowing(req: HttpRequest, fullPath: string, headers: Record<string, string>, body: string | undefined): Promise<HttpResponse> {
    let path = fullPath;
    let method = req.method;
    let sendBody = body;
    for (let hop = 0; ; hop++) {
      const res = await sendOnce(method, path, headers, sendBody);
      const location = res.headers['location'];
      if (res.status < 300 || res.status >= 400 || location === undefined) return res;
      const target = new URL(location, origin + path);
      if (target.origin !== origin) {
        throw new ConvergeError(
          'http.redirect-refused',
          `${req.method} ${stripQuery(fullPath)} was redirected (${res.status}) to another origin, ${target.origin}; converge does not follow it with the token`,
          { source: 'remote', status: res.status, hint: `point the address at the server that answers directly (was ${origin})` },
        );
      }
      const keepsMethod = res.status === 307 || res.status === 308;
      if (!keepsMethod && method !== 'GET') return res;
      if (hop >= MAX_REDIRECTS) {
        throw new ConvergeError('http.redirect-loop', `${req.method} ${stripQuery(fullPath)}: more than ${MAX_REDIRECTS} redirects`, {
          source: 'remote',
          status: res.status,
        });
      }
      path = target.pathname + target.search;
      if (!keepsMethod) {
        method = 'GET';
        sendBody = undefined;
      }
    }
  }

  async function request(req: HttpRequest): Promise<HttpResponse> {
    if (closed) throw new ConvergeError('http.closed', `${req.method} ${req.path}: the HTTP client is closed`, { source: 'internal' });
    const idempotent = req.idempotent ?? (req.method === 'GET' || req.method === 'PUT' || req.method === 'DELETE');
    // A non-idempotent request with a read-back is retried like an idempotent one, but only after the
    // read finds that the failed attempt did nothing (STYLE.md §5).
    const readBack = idempotent ? undefined : req.readBack;
    const retriable = idempotent || readBack !== undefined;
    let recovered: HttpResponse | undefined;
    const fullPath = basePath + req.path + queryString(req.query);
    const shownPath = basePath + req.path;
    const subject = req.subject ? ` (${req.subject})` : '';
    const headers: Record<string, string> = { ...opts.headers, ...req.headers };
    let body: string | undefined;
    if (req.body !== undefined) {
      body = typeof req.body === 'string' ? req.body : JSON.stringify(req.body);
      if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
    }
    warnPlaintext(headers);

    let serverWait: number | undefined;
    const attempt = async (attemptNumber: number): Promise<HttpResponse> => {
      serverWait = undefined;
      let res: HttpResponse;
      try {
        res = await sendFollowing(req, fullPath, headers, body);
      } catch (e) {
        if (e instanceof ConvergeError) throw e;
        throw new NetworkFailure(errorCode(e), e);
      }
      feedRateLimit(res.headers);
      if (res.status === 429) {
        stats.status429 += 1;
        // One 429 pauses every request to this origin (the gate), not just this one.
        serverWait = serverWaitMs(res.headers) ?? backoffMs(attemptNumber, minTimeoutMs, maxTimeoutMs);
        gate.closeFor(serverWait);
      } else if (res.status >= 500) {
        // Not X-RateLimit-Reset: that is the rate-limit window, not a hint about a failing server.
        serverWait = retryAfterMs(res.headers) ?? serverErrorBackoffMs(attemptNumber, maxTimeoutMs);
      }
      if (isRetryableStatus(res.status, retriable) && !(res.status >= 500 && req.isFinal?.(res))) throw new RetryableResponse(res);
      // A 5xx page is a proxy in front of the right server failing: left to the caller (and retried above).
      if (opts.service && res.status < 500 && isWebPage(res)) throw wrongServerError(opts.service, origin, `${req.method} ${shownPath}`, res);
      return res;
    };

    try {
      return await pRetry(attempt, {
        retries,
        // p-retry's own delay is off: we wait in shouldRetry so Retry-After and the gate are honoured.
        minTimeout: 0,
        shouldRetry: async ({ error, attemptNumber }) => {
          let what: { status: number } | { error: string };
          if (error instanceof RetryableResponse) what = { status: error.response.status };
          else if (error instanceof NetworkFailure && isRetryableError(error.code, retriable)) what = { error: error.code ?? 'network' };
          else return false;
          const is429 = 'status' in what && what.status === 429;
          // A 429 and a connection never made are answered before the handler runs; anything else
          // may have been acted on: look before sending again.
          if (readBack && !is429 && !(error instanceof NetworkFailure && wasNotSent(error.code))) {
            const found = await lookBack(readBack);
            if (found === 'failed') return false;
            if (found !== undefined) {
              recovered = found;
              reporter?.emit({
                code: 'http.read-back',
                level: 'info',
                message: `${req.method} ${shownPath}${subject}: ${'status' in what ? `HTTP ${what.status}` : what.error}, but a read by natural key found it done; not sent again`,
                data: { method: req.method, path: shownPath, ...what, attempt: attemptNumber, subject: req.subject },
              });
              return false;
            }
          }
          const waitMs = is429 ? gate.remaining() : (serverWait ?? backoffMs(attemptNumber, minTimeoutMs, maxTimeoutMs));
          stats.retries += 1;
          reporter?.emit({
            code: 'http.retry',
            level: is429 || attemptNumber >= 3 ? 'warn' : 'debug',
            message: `${req.method} ${shownPath}${subject}: ${'status' in what ? `HTTP ${what.status}` : what.error}; retry ${attemptNumber} of ${retries} in ${formatDuration(waitMs)}`,
            data: { method: req.method, path: shownPath, ...what, attempt: attemptNumber, waitMs, subject: req.subject },
          });
          // A 429's wait is the gate, which the next attempt passes through; others sleep here.
          if (!is429 && waitMs > 0) await sleep(waitMs);
          return true;
        },
      });
    } catch (e) {
      if (recovered) return recovered;
      // The last attempt may have been acted on too: one more look, so the caller never fails a create that happened.
      if (readBack && (e instanceof RetryableResponse ? e.response.status !== 429 : e instanceof NetworkFailure && !wasNotSent(e.code))) {
        const found = await lookBack(readBack);
        if (found !== undefined && found !== 'failed') {
          return found;
        }
      }
      if (e instanceof RetryableResponse) return e.response;
      if (e instanceof NetworkFailure) {
        const code = e.code ?? 'network error';
        throw new ConvergeError('http.network', `${req.method} ${origin}${shownPath}${subject} failed: ${code}${describeCode(code)}`, {
          source: 'remote',
          retryable: true,
          hint: networkHint(code, origin, e.original),
          cause: e.original,
        });
      }
      throw e;
    }
  }

  return {
    baseUrl: origin + basePath,
    request,
    stats: () => ({ ...stats }),
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      if (ownsDispatcher) await dispatcher.close();
    },
  };
}

/** Runs a read-back; a failing read counts as "cannot tell", which ends the retries with the original failure. */
async function lookBack(readBack: () => Promise<HttpResponse | undefined>): Promise<HttpResponse | undefined | 'failed'> {
  try {
    return await readBack();
  } catch {
    return 'failed';
  }
}

function queryString(query: HttpRequest['query']): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) params.append(k, String(v));
  const s = params.toString();
  return s === '' ? '' : `?${s}`;
}

function flattenHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) {
    if (v === undefined) continue;
    out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

function stripQuery(path: string): string {
  const q = path.indexOf('?');
  return q < 0 ? path : path.slice(0, q);
}

const TOKEN_HEADER = /token|authorization|api-key|secret/i;
function isTokenHeader(name: string): boolean {
  return TOKEN_HEADER.test(name);
}

export function isLoopback(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

function describeCode(code: string): string {
  switch (code) {
    case 'ECONNREFUSED':
      return ' (connection refused: nothing listens there)';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return ' (the connection was closed by the other side)';
    case 'ENOTFOUND':
      return ' (host name not found)';
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'ETIMEDOUT':
      return ' (timed out)';
    default:
      return '';
  }
}
