import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/async/manual-clock.js';
import { createHttpClient } from '../../src/http/client.js';
import type { HttpClient, HttpClientOptions } from '../../src/http/types.js';
import { ConvergeError } from '../../src/diagnostics/errors.js';
import { MemoryReporter } from '../../src/model/events.js';
import { send, startServer } from './server.js';
import type { TestServer } from './server.js';

const servers: TestServer[] = [];
const clients: HttpClient[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  for (const s of servers.splice(0)) await s.stop();
});

async function server(handler: Parameters<typeof startServer>[0], now?: () => number): Promise<TestServer> {
  const s = await startServer(handler, now);
  servers.push(s);
  return s;
}

/**
 * Runs `work` with the client's waits on `clock`, moved 10 ms at a time (never near the 2 min response deadline,
 * which runs on it too) until the work ends: waits are checked on the clock, never on the wall clock.
 */
async function onClock<T>(clock: ManualClock, work: Promise<T>): Promise<T> {
  let done = false;
  const watched = work.finally(() => (done = true));
  for (let i = 0; i < 10_000 && !done; i++) await clock.advanceInSteps(10, 10);
  return watched;
}

function client(opts: HttpClientOptions): HttpClient {
  const c = createHttpClient({ retry: { minTimeoutMs: 5, maxTimeoutMs: 20 }, ...opts });
  clients.push(c);
  return c;
}

describe('createHttpClient', () => {
  it('retries a GET on 503 and returns the success', async () => {
    const s = await server((_req, res, _hit, n) => (n <= 2 ? send(res, 503, 'busy') : send(res, 200, '{"ok":true}')));
    const reporter = new MemoryReporter();
    const c = client({ baseUrl: s.url, reporter });
    const res = await c.request({ method: 'GET', path: '/v1/thing', subject: 'Thing/a' });
    expect(res.status).toBe(200);
    expect(res.text).toBe('{"ok":true}');
    expect(s.hits).toHaveLength(3);
    const retries = reporter.events.filter((e) => e.code === 'http.retry');
    expect(retries).toHaveLength(2);
    expect(retries[0]?.data).toMatchObject({ method: 'GET', path: '/v1/thing', status: 503, attempt: 1, subject: 'Thing/a' });
    expect(c.stats()).toEqual({ requests: 3, retries: 2, status429: 0 });
  });

  it('returns the last response when retries run out', async () => {
    const s = await server((_req, res) => send(res, 502, 'bad gateway'));
    const c = client({ baseUrl: s.url, retry: { retries: 2, minTimeoutMs: 1, maxTimeoutMs: 2 } });
    const res = await c.request({ method: 'GET', path: '/x' });
    expect(res.status).toBe(502);
    expect(s.hits).toHaveLength(3);
  });

  it('does not retry a POST on 500', async () => {
    const s = await server((_req, res) => send(res, 500, 'boom'));
    const c = client({ baseUrl: s.url });
    const res = await c.request({ method: 'POST', path: '/v1/create', body: { a: 1 } });
    expect(res.status).toBe(500);
    expect(s.hits).toHaveLength(1);
    expect(s.hits[0]?.body).toBe('{"a":1}');
    expect(s.hits[0]?.headers['content-type']).toBe('application/json');
    expect(c.stats()).toEqual({ requests: 1, retries: 0, status429: 0 });
  });

  it('retries a POST on 429 (the request was not processed)', async () => {
    const s = await server((_req, res, _hit, n) => (n === 1 ? send(res, 429, 'slow down', { 'retry-after': '0' }) : send(res, 200, 'ok')));
    const c = client({ baseUrl: s.url });
    const res = await c.request({ method: 'POST', path: '/v1/create', body: '{}' });
    expect(res.status).toBe(200);
    expect(s.hits).toHaveLength(2);
    expect(c.stats()).toEqual({ requests: 2, retries: 1, status429: 1 });
  });

  it('a 429 with Retry-After pauses a concurrent second request to the same host', async () => {
    const clock = new ManualClock(0);
    const s = await server((req, res, _hit, n) => {
      if (req.url === '/a' && n === 1) send(res, 429, 'rate limited', { 'retry-after': '1' });
      else send(res, 200, 'ok');
    }, () => clock.now());
    const reporter = new MemoryReporter();
    const c = client({ baseUrl: s.url, reporter, clock });
    const first = c.request({ method: 'GET', path: '/a' });
    // Let the 429 arrive before the second request starts.
    for (let i = 0; i < 1000 && !reporter.events.some((e) => e.code === 'http.retry'); i++) await clock.advanceInSteps(1, 1);
    const asked = clock.now();
    const [ra, rb] = await onClock(clock, Promise.all([first, c.request({ method: 'GET', path: '/b' })]));
    expect(ra.status).toBe(200);
    expect(rb.status).toBe(200);
    const bHit = s.hits.find((h) => h.url === '/b');
    expect(bHit).toBeDefined();
    // /b was held at the gate until the Retry-After second had passed (on the client's clock).
    expect(bHit!.at).toBeGreaterThanOrEqual(s.hits[0]!.at + 1000);
    expect(bHit!.at).toBeGreaterThan(asked);
    const retry = reporter.events.find((e) => e.code === 'http.retry');
    expect(retry?.level).toBe('warn');
    expect(retry?.data?.status).toBe(429);
    expect(Number(retry?.data?.waitMs)).toBeGreaterThan(800);
    expect(c.stats().status429).toBe(1);
  });

  it('X-RateLimit-Reset (float seconds) is honoured on a 429 without Retry-After', async () => {
    const clock = new ManualClock(0);
    const s = await server((_req, res, _hit, n) => (n === 1 ? send(res, 429, '', { 'x-ratelimit-reset': '0.3' }) : send(res, 200, 'ok')), () => clock.now());
    const c = client({ baseUrl: s.url, clock });
    await onClock(clock, c.request({ method: 'GET', path: '/r' }));
    expect(s.hits[1]!.at - s.hits[0]!.at).toBeGreaterThanOrEqual(300);
  });

  it('a 5xx is retried on its own backoff, not after X-RateLimit-Reset (that header is about 429s; regression)', async () => {
    const s = await server((_req, res, _hit, n) => (n === 1 ? send(res, 500, 'boom', { 'x-ratelimit-limit': '30', 'x-ratelimit-reset': '20' }) : send(res, 200, 'ok')));
    const reporter = new MemoryReporter();
    // The backoff waits on a manual clock, moved 100 ms at a time (never near the 2 min response deadline,
    // which runs on it too) until the request ends.
    const clock = new ManualClock();
    const c = createHttpClient({ baseUrl: s.url, reporter, clock });
    clients.push(c);
    let done = false;
    const req = c.request({ method: 'GET', path: '/x' }).finally(() => (done = true));
    for (let i = 0; i < 100 && !done; i++) await clock.advanceInSteps(100, 100);
    await req;
    expect(s.hits).toHaveLength(2);
    // go-tfe's linear jitter for 5xx: 700–900 ms for the first retry (docs/reference/hcp-terraform-api.md §8),
    // not the 20 s of X-RateLimit-Reset.
    const wait = Number(reporter.events.find((e) => e.code === 'http.retry')?.data?.waitMs);
    expect(wait).toBeGreaterThanOrEqual(700);
    expect(wait).toBeLessThanOrEqual(900);
    expect(reporter.events.find((e) => e.code === 'http.retry')?.data).toMatchObject({ status: 500 });
  });

  it('a 5xx the caller recognises as final is returned at once, not retried', async () => {
    const s = await server((_req, res) => send(res, 500, 'default ACL auth method already exists: okta'));
    const c = client({ baseUrl: s.url });
    const res = await c.request({ method: 'PUT', path: '/v1/acl/auth-method/b', isFinal: (r) => r.text.includes('already exists') });
    expect(res.status).toBe(500);
    expect(s.hits).toHaveLength(1);
  });

  it('X-RateLimit-Remaining: 0 holds the next request until the reset, without a 429', async () => {
    const clock = new ManualClock(0);
    const s = await server(
      (_req, res, _hit, n) =>
        n === 1 ? send(res, 200, 'ok', { 'x-ratelimit-limit': '30', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '0.25' }) : send(res, 200, 'ok'),
      () => clock.now(),
    );
    const c = client({ baseUrl: s.url, clock });
    await onClock(clock, c.request({ method: 'GET', path: '/1' }));
    await onClock(clock, c.request({ method: 'GET', path: '/2' }));
    expect(s.hits[1]!.at - s.hits[0]!.at).toBeGreaterThanOrEqual(250);
    expect(c.stats().status429).toBe(0);
  });

  it('paces a burst at rateLimitPerSecond', async () => {
    const clock = new ManualClock(0);
    const s = await server((_req, res) => send(res, 200, 'ok'), () => clock.now());
    const c = client({ baseUrl: s.url, rateLimitPerSecond: 20, clock });
    await onClock(clock, Promise.all(Array.from({ length: 11 }, (_, i) => c.request({ method: 'GET', path: `/p/${i}` }))));
    // 11 requests at 20/s: the first goes at once, the other 10 spaced out over at least half a second of the clock.
    const ats = s.hits.map((h) => h.at).sort((a, b) => a - b);
    expect(ats[10]! - ats[0]!).toBeGreaterThanOrEqual(450);
    for (let i = 1; i < ats.length; i++) expect(ats[i]! - ats[i - 1]!).toBeGreaterThanOrEqual(35);
  });

  it('retries a GET whose socket was reset', async () => {
    const s = await server((req, res, _hit, n) => {
      if (n === 1) req.socket.destroy();
      else send(res, 200, 'ok');
    });
    const reporter = new MemoryReporter();
    const c = client({ baseUrl: s.url, reporter });
    const res = await c.request({ method: 'GET', path: '/reset' });
    expect(res.status).toBe(200);
    expect(s.hits).toHaveLength(2);
    const retry = reporter.events.find((e) => e.code === 'http.retry');
    expect(retry?.data?.error).toMatch(/UND_ERR_SOCKET|ECONNRESET/);
  });

  it('does not retry a POST whose socket was reset; the error is http.network naming method and path', async () => {
    const s = await server((req) => req.socket.destroy());
    const c = client({ baseUrl: s.url, headers: { 'X-Nomad-Token': 'super-secret-token' } });
    const err = await c.request({ method: 'POST', path: '/v1/acl/auth-method', body: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConvergeError);
    const ce = err as ConvergeError;
    expect(ce.code).toBe('http.network');
    expect(ce.source).toBe('remote');
    expect(ce.retryable).toBe(true);
    expect(ce.message).toContain('POST');
    expect(ce.message).toContain('/v1/acl/auth-method');
    expect(ce.message).not.toContain('super-secret-token');
    expect(s.hits).toHaveLength(1);
  });

  it('connection refused after retries is http.network', async () => {
    const s = await server((_req, res) => send(res, 200));
    const url = s.url;
    await s.stop();
    servers.splice(0);
    const c = client({ baseUrl: url, retry: { retries: 2, minTimeoutMs: 1, maxTimeoutMs: 2 } });
    const err = (await c.request({ method: 'GET', path: '/gone' }).catch((e: unknown) => e)) as ConvergeError;
    expect(err.code).toBe('http.network');
    expect(err.message).toContain('ECONNREFUSED');
    expect(c.stats()).toMatchObject({ retries: 2 });
  });

  it('refuses a redirect to another origin and never sends the token there', async () => {
    const other = await server((_req, res) => send(res, 200, 'stolen'));
    const s = await server((_req, res) => send(res, 307, '', { location: `${other.url}/v1/elsewhere` }));
    const c = client({ baseUrl: s.url, headers: { 'X-Nomad-Token': 'tok-123456' } });
    const err = (await c.request({ method: 'GET', path: '/v1/here' }).catch((e: unknown) => e)) as ConvergeError;
    expect(err).toBeInstanceOf(ConvergeError);
    expect(err.code).toBe('http.redirect-refused');
    expect(err.message).toContain('/v1/here');
    expect(other.hits).toHaveLength(0);
  });

  it('follows a same-origin redirect', async () => {
    const s = await server((req, res) => (req.url === '/old' ? send(res, 301, '', { location: '/new' }) : send(res, 200, 'here')));
    const c = client({ baseUrl: s.url });
    const res = await c.request({ method: 'GET', path: '/old' });
    expect(res.text).toBe('here');
    expect(s.hits.map((h) => h.url)).toEqual(['/old', '/new']);
  });

  it('keeps the base path, encodes the query and sends fixed headers', async () => {
    const s = await server((_req, res) => send(res, 200, 'ok', { 'X-Custom': 'v' }));
    const c = client({ baseUrl: `${s.url}/api/v2/`, headers: { Authorization: 'Bearer abcd' } });
    const res = await c.request({ method: 'GET', path: '/things', query: { 'page[size]': 100, region: 'europe', skip: undefined } });
    expect(s.hits[0]?.url).toBe('/api/v2/things?page%5Bsize%5D=100&region=europe');
    expect(s.hits[0]?.headers.authorization).toBe('Bearer abcd');
    expect(res.headers['x-custom']).toBe('v');
    expect(c.baseUrl).toBe(`${s.url}/api/v2`);
  });

  it('warns once about a token over plain http to a non-loopback host, never for loopback', async () => {
    const s = await server((_req, res) => send(res, 200, 'ok'));
    const reporter = new MemoryReporter();
    const c = client({ baseUrl: s.url, headers: { 'X-Nomad-Token': 'abcd' }, reporter });
    await c.request({ method: 'GET', path: '/' });
    expect(reporter.events.filter((e) => e.code === 'http.plaintext-token')).toHaveLength(0);

    // A non-loopback name that cannot resolve: the warning is emitted before the request fails.
    const remote = client({ baseUrl: 'http://converge-test.invalid:4646', headers: { 'X-Nomad-Token': 'abcd' }, reporter, retry: { retries: 0 } });
    await remote.request({ method: 'GET', path: '/a' }).catch(() => undefined);
    await remote.request({ method: 'GET', path: '/b' }).catch(() => undefined);
    const warns = reporter.events.filter((e) => e.code === 'http.plaintext-token');
    expect(warns).toHaveLength(1);
    expect(warns[0]?.level).toBe('warn');
    expect(JSON.stringify(warns)).not.toContain('abcd');
  });

  it('stats count requests, retries and 429s across calls', async () => {
    let n429 = 0;
    const s = await server((req, res) => {
      if (req.url === '/limited' && n429 < 1) {
        n429 += 1;
        send(res, 429, '', { 'retry-after': '0' });
      } else if (req.url === '/flaky' && s.hits.filter((h) => h.url === '/flaky').length === 1) send(res, 504);
      else send(res, 200);
    });
    const c = client({ baseUrl: s.url });
    await c.request({ method: 'GET', path: '/limited' });
    await c.request({ method: 'GET', path: '/flaky' });
    await c.request({ method: 'DELETE', path: '/ok' });
    expect(c.stats()).toEqual({ requests: 5, retries: 2, status429: 1 });
  });

  it('rejects a bad base URL with a user error', () => {
    expect(() => createHttpClient({ baseUrl: 'not a url' })).toThrow(expect.objectContaining({ code: 'http.bad-address' }));
  });

  it('a missing TLS file is a user error naming the file', () => {
    expect(() => createHttpClient({ baseUrl: 'https://127.0.0.1:1', tls: { caCertFile: '/nonexistent/ca.pem' } })).toThrow(
      expect.objectContaining({ code: 'http.tls-file', source: 'user' }),
    );
  });
});
