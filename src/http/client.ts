import pRetry from 'p-retry';
import type { Dispatcher } from 'undici';
import { realClock } from '../async/clock.js';
import { ConvergeError } from '../diagnostics/errors.js';
import { formatDuration } from '../model/duration-text.js';
import { lookBack, NetworkFailure, RetryableResponse } from './attempt-outcomes.js';
import { parseBaseAddress } from './base-address.js';
import { HostGate } from './gate.js';
import { HTTP_LIMIT_DEFAULTS, HTTP_LIMIT_SETTINGS, limitError, ResponseLimitExceeded } from './limits.js';
import { networkError } from './network-hints.js';
import { GateBeyondBudget, OriginSender } from './origin-sender.js';
import { Pacer } from './pacer.js';
import { plaintextTokenWarning } from './plaintext-token.js';
import { createPool } from './pool.js';
import { feedRateLimit } from './rate-limit-feed.js';
import { sendFollowingRedirects } from './redirects.js';
import { reportReadBack, reportRetry, type AttemptFailure, type RequestLabel } from './request-events.js';
import { queryString, requestPayload } from './request-shape.js';
import { backoffMs, errorCode, isRetryableError, isRetryableStatus, retryAfterMs, serverErrorBackoffMs, serverWaitMs, wasNotSent } from './retry-policy.js';
import { isWebPage, wrongServerError, wrongServiceError } from './wrong-server.js';
import type { HttpClient, HttpClientOptions, HttpRequest, HttpResponse } from './types.js';

export const HTTP_DEFAULTS = {
  retries: 6,
  minTimeoutMs: 100,
  maxTimeoutMs: 5000,
  timeoutMs: 30_000,
  connections: 8,
} as const;

/**
 * The one HTTP layer (see types.ts). One client serves one origin (its base URL): an undici Pool,
 * a pacer, the origin's Retry-After gate, and the retry policy of retry-policy.ts.
 *
 * The gate belongs to the client: every provider builds one client per remote service, so the whole
 * host pauses for a 429 seen by any of its requests. Two clients to the same host (the Nomad provider
 * and the Nomad state backend) pace separately; they rarely run at the same time.
 */
export function createHttpClient(opts: HttpClientOptions): HttpClient {
  const base = parseBaseAddress(opts.baseUrl);
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
  const clock = opts.clock ?? realClock;
  const pacer = opts.rateLimitPerSecond !== undefined && opts.rateLimitPerSecond > 0 ? new Pacer(opts.rateLimitPerSecond, undefined, undefined, clock) : undefined;
  const limits = { ...HTTP_LIMIT_DEFAULTS, ...opts.limits };
  const sender = new OriginSender(origin, dispatcher, new HostGate(clock), pacer, limits, clock);
  const { gate, stats } = sender;
  /** The gates of rationed endpoint families (HttpRequest.rateScope), beside the host's. */
  const scopeGates = new Map<string, HostGate>();
  const gateOf = (scope: string): HostGate => {
    let g = scopeGates.get(scope);
    if (!g) scopeGates.set(scope, (g = new HostGate(clock)));
    return g;
  };
  const reporter = opts.reporter;
  const warnPlaintext = plaintextTokenWarning(base, reporter);
  let closed = false;
  let identified: Promise<void> | undefined;

  /**
   * The service's probe, once, before the first request: an answer from another service (or
   * anything else) at the address is an error, never data. A 5xx says nothing about who answered
   * (a proxy in front of the right server failing): the request goes on and meets it itself.
   */
  async function identify(): Promise<void> {
    const service = opts.service;
    const probe = service?.probe;
    if (!service || !probe) return;
    const res = await send({ method: 'GET', path: probe.path, subject: `is this ${service.name}?` });
    if (res.status < 500 && !probe.recognise(res)) throw wrongServiceError(service, probe, origin, `GET ${basePath}${probe.path}`, res);
  }

  async function request(req: HttpRequest): Promise<HttpResponse> {
    if (closed) throw new ConvergeError('http.closed', `${req.method} ${req.path}: the HTTP client is closed`, { source: 'internal' });
    identified ??= identify();
    await identified;
    return send(req);
  }

  async function send(req: HttpRequest): Promise<HttpResponse> {
    const idempotent = req.idempotent ?? (req.method === 'GET' || req.method === 'PUT' || req.method === 'DELETE');
    // A non-idempotent request with a read-back is retried like an idempotent one, but only after the
    // read finds that the failed attempt did nothing (docs/architecture.md "Rules the code keeps").
    const readBack = idempotent ? undefined : req.readBack;
    const retriable = idempotent || readBack !== undefined;
    let recovered: HttpResponse | undefined;
    const fullPath = basePath + req.path + queryString(req.query);
    const label: RequestLabel = { method: req.method, path: basePath + req.path, subject: req.subject };
    const { headers, body } = requestPayload(opts.headers, req);
    warnPlaintext(headers);
    // A rationed family's 429 closes its own gate; the host's stays open for every other request.
    const scopeGate = req.rateScope !== undefined ? gateOf(req.rateScope) : undefined;
    const waitGate = scopeGate ?? gate;
    // The retry budget: every wait (Retry-After, backoff, the host's gate) must end before it does.
    const budgetEnds = clock.now() + limits.retryBudgetMs;
    let budgetSpent: { waitMs: number; attempts: number; what: AttemptFailure | undefined; retryAfter: string | undefined } | undefined;
    let lastFailure: AttemptFailure | undefined;
    let lastRetryAfter: string | undefined;
    const sendOnce = (method: HttpRequest['method'], path: string, sent: string | undefined): Promise<HttpResponse> =>
      sender.send(method, path, headers, sent, budgetEnds, req.signal, scopeGate);
    const aborted = () => new ConvergeError('http.aborted', `${req.method} ${origin}${label.path}${req.subject ? ` (${req.subject})` : ''}: abandoned, no longer needed`, { source: 'internal', cause: req.signal?.reason });
    if (req.signal?.aborted) throw aborted();

    let serverWait: number | undefined;
    const attempt = async (attemptNumber: number): Promise<HttpResponse> => {
      serverWait = undefined;
      let res: HttpResponse;
      try {
        if (req.signal?.aborted) throw aborted();
        res = await sendFollowingRedirects(sendOnce, origin, req.method, fullPath, body);
      } catch (e) {
        if (e instanceof ConvergeError) throw e;
        if (e instanceof GateBeyondBudget) {
          budgetSpent = { waitMs: e.waitMs, attempts: attemptNumber - 1, what: lastFailure, retryAfter: lastRetryAfter };
          throw e;
        }
        throw new NetworkFailure(errorCode(e), e);
      }
      lastRetryAfter = res.headers['retry-after'];
      // A rationed family's headers describe its ration, not the host's limit: they never move the host's pace.
      if (!scopeGate) feedRateLimit(res.headers, pacer, gate, sender.inFlight);
      if (res.status === 429) {
        stats.status429 += 1;
        // One 429 pauses every request to this origin (the gate), not just this one; a rationed family's, the family.
        serverWait = serverWaitMs(res.headers, clock.now()) ?? backoffMs(attemptNumber, minTimeoutMs, maxTimeoutMs);
        waitGate.closeFor(serverWait);
      } else if (res.status >= 500) {
        // Not X-RateLimit-Reset: that is the rate-limit window, not a hint about a failing server.
        serverWait = retryAfterMs(res.headers, clock.now()) ?? serverErrorBackoffMs(attemptNumber, maxTimeoutMs);
      }
      if (isRetryableStatus(res.status, retriable) && !(res.status >= 500 && req.isFinal?.(res))) throw new RetryableResponse(res);
      // A 5xx page is a proxy in front of the right server failing: left to the caller (and retried above).
      if (opts.service && res.status < 500 && isWebPage(res)) throw wrongServerError(opts.service, origin, `${req.method} ${label.path}`, res);
      return res;
    };

    try {
      return await pRetry(attempt, {
        retries,
        // p-retry's own delay is off: we wait in shouldRetry so Retry-After and the gate are honoured.
        minTimeout: 0,
        shouldRetry: async ({ error, attemptNumber }) => {
          if (req.signal?.aborted) return false;
          let what: AttemptFailure;
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
              reportReadBack(reporter, label, what, attemptNumber);
              return false;
            }
          }
          const waitMs = is429 ? waitGate.remaining() : (serverWait ?? backoffMs(attemptNumber, minTimeoutMs, maxTimeoutMs));
          lastFailure = what;
          if (clock.now() + waitMs > budgetEnds) {
            budgetSpent = { waitMs, attempts: attemptNumber, what, retryAfter: lastRetryAfter };
            return false;
          }
          stats.retries += 1;
          reportRetry(reporter, label, what, attemptNumber, retries, waitMs);
          // A 429's wait is the gate, which the next attempt passes through; others sleep here.
          if (!is429 && waitMs > 0) await clock.sleep(waitMs, req.signal);
          return !req.signal?.aborted;
        },
      });
    } catch (e) {
      if (recovered) return recovered;
      if (req.signal?.aborted) throw aborted();
      if (budgetSpent) throw retryBudgetError(`${req.method} ${origin}${label.path}${req.subject ? ` (${req.subject})` : ''}`, limits.retryBudgetMs, budgetSpent);
      // The last attempt may have been acted on too: one more look, so the caller never fails a create that happened.
      if (readBack && (e instanceof RetryableResponse ? e.response.status !== 429 : e instanceof NetworkFailure && !wasNotSent(e.code))) {
        const found = await lookBack(readBack);
        if (found !== undefined && found !== 'failed') return found;
      }
      if (e instanceof RetryableResponse) return e.response;
      if (e instanceof NetworkFailure && e.original instanceof ResponseLimitExceeded) {
        throw limitError(`${req.method} ${label.path}${req.subject ? ` (${req.subject})` : ''}`, origin, e.original);
      }
      if (e instanceof NetworkFailure) {
        const subject = req.subject ? ` (${req.subject})` : '';
        throw networkError(`${req.method} ${origin}${label.path}${subject}`, origin, e.code, e.original);
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

/** The request gave up because the next wait would end past its retry budget: says what was asked and the budget. */
function retryBudgetError(what: string, budgetMs: number, spent: { waitMs: number; attempts: number; what: AttemptFailure | undefined; retryAfter: string | undefined }): ConvergeError {
  const failure = spent.what === undefined ? 'the host is paused' : 'status' in spent.what ? `HTTP ${spent.what.status}` : spent.what.error;
  const asked = spent.retryAfter !== undefined ? ` (Retry-After: ${spent.retryAfter})` : '';
  return new ConvergeError(
    'http.retry-budget-spent',
    `${what}: gave up after ${spent.attempts} attempt${spent.attempts === 1 ? '' : 's'} (last: ${failure}): the next try was ${formatDuration(spent.waitMs)} away${asked}, past the retry budget of ${formatDuration(budgetMs)}`,
    {
      source: 'remote',
      retryable: true,
      ...(spent.what !== undefined && 'status' in spent.what ? { status: spent.what.status } : {}),
      hint: `the service is overloaded or rate-limiting; run again later, or raise ${HTTP_LIMIT_SETTINGS.retryBudgetMs} (e.g. ${HTTP_LIMIT_SETTINGS.retryBudgetMs}=10m) to wait longer`,
    },
  );
}
