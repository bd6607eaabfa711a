import { afterEach, describe, expect, it } from 'vitest';
import { createHttpClient } from '../../src/http/client.js';
import type { HttpClient } from '../../src/http/types.js';
import { MemoryReporter } from '../../src/model/events.js';
import { formatDuration } from '../../src/model/duration-text.js';
import { send, startServer, type TestServer } from './server.js';

const servers: TestServer[] = [];
const clients: HttpClient[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  for (const s of servers.splice(0)) await s.stop();
});

describe('formatDuration', () => {
  it('reads like a person wrote it', () => {
    expect(formatDuration(1.616895999999997)).toBe('2 ms');
    expect(formatDuration(0.2)).toBe('1 ms');
    expect(formatDuration(0)).toBe('0 ms');
    expect(formatDuration(-5)).toBe('0 ms');
    expect(formatDuration(999)).toBe('999 ms');
    expect(formatDuration(999.6)).toBe('1 s');
    expect(formatDuration(1616.9)).toBe('1.6 s');
    expect(formatDuration(2000)).toBe('2 s');
    expect(formatDuration(9_990)).toBe('10 s');
    expect(formatDuration(45_300)).toBe('45 s');
    expect(formatDuration(60_000)).toBe('1 min');
    expect(formatDuration(185_000)).toBe('3 min 5 s');
    expect(formatDuration(3_720_000)).toBe('1 h 2 min');
    expect(formatDuration(Number.NaN)).toBe('0 ms');
  });
});

describe('retry warning', () => {
  // Regression: "HTTP 429; retry 1 of 6 in 1.616895999999997 ms" (demo step 7).
  it('says how long it waits without float noise', async () => {
    const s = await startServer((_req, res, _hit, n) => (n === 1 ? send(res, 429, '', { 'x-ratelimit-reset': '0.0016' }) : send(res, 200, 'ok')));
    servers.push(s);
    const reporter = new MemoryReporter();
    const c = createHttpClient({ baseUrl: s.url, reporter, retry: { minTimeoutMs: 5, maxTimeoutMs: 20 } });
    clients.push(c);
    expect((await c.request({ method: 'GET', path: '/api/v2/x', subject: 'workspace x' })).status).toBe(200);
    const retry = reporter.events.find((e) => e.code === 'http.retry');
    expect(retry?.message).toMatch(/^GET \/api\/v2\/x \(workspace x\): HTTP 429; retry 1 of \d+ in \d{1,3} ms$/);
  });

  it('a backoff wait is whole milliseconds too', async () => {
    const s = await startServer((_req, res, _hit, n) => (n === 1 ? send(res, 503, 'busy') : send(res, 200, 'ok')));
    servers.push(s);
    const reporter = new MemoryReporter();
    const c = createHttpClient({ baseUrl: s.url, reporter, retry: { minTimeoutMs: 5, maxTimeoutMs: 20 } });
    clients.push(c);
    await c.request({ method: 'GET', path: '/y' });
    const retry = reporter.events.find((e) => e.code === 'http.retry');
    expect(retry?.message).toMatch(/: HTTP 503; retry 1 of \d+ in \d{1,2} ms$/);
  });
});
