import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/async/manual-clock.js';
import { createHttpClient } from '../../src/http/client.js';
import { Pacer } from '../../src/http/pacer.js';
import type { HttpClient } from '../../src/http/types.js';
import { startTfeSimulator, type TfeSimHandle } from '../../src/sandbox/tfe/index.js';
import { send, startServer, type TestServer } from './server.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/* Every wait runs on a manual clock the test moves 5 ms at a time, and the servers stamp hits with it: the pace is checked on the clock, never on the wall clock. */
let clock: ManualClock;

function client(baseUrl: string, rateLimitPerSecond: number, headers?: Record<string, string>): HttpClient {
  const c = createHttpClient({ baseUrl, rateLimitPerSecond, clock, ...(headers ? { headers } : {}) });
  cleanups.push(() => c.close());
  return c;
}

async function server(limit: string): Promise<TestServer> {
  const s = await startServer((_req, res) => send(res, 200, 'ok', { 'x-ratelimit-limit': limit }), () => clock.now());
  cleanups.push(() => s.stop());
  return s;
}

/** Moves the clock until `work` ends. */
async function onClock<T>(work: Promise<T>): Promise<T> {
  let done = false;
  const watched = work.finally(() => (done = true));
  for (let i = 0; i < 20_000 && !done; i++) await clock.advanceInSteps(5, 5);
  return watched;
}

describe('Pacer', () => {
  it('spreads `limit` requests over one second plus the jitter guard', () => {
    const p = new Pacer(30, 1, 50);
    const waits = Array.from({ length: 4 }, () => p.reserve(1000));
    expect(waits).toEqual([0, 35, 70, 105]);
    expect(p.rate).toBe(30);
  });

  it('follows the advertised limit up and down; ignores nonsense', () => {
    const p = new Pacer(30, 1, 0);
    p.follow(100);
    expect(p.pace).toBeCloseTo(100);
    p.follow(10);
    expect(p.pace).toBeCloseTo(10);
    p.follow(0);
    p.follow(Number.NaN);
    expect(p.rate).toBe(10);
  });
});

describe('pacing from X-RateLimit-Limit (docs/reference/hcp-terraform-api.md §8)', () => {
  it('a smaller advertised limit slows the client down', async () => {
    clock = new ManualClock(0);
    const s = await server('10');
    const c = client(s.url, 30);
    await onClock(c.request({ method: 'GET', path: '/first' }));
    for (let i = 0; i < 5; i++) await onClock(c.request({ method: 'GET', path: `/p/${i}` }));
    // 10 per second: the 5 paced requests span at least 4 gaps of 100 ms on the clock.
    const ats = s.hits.slice(1).map((h) => h.at);
    expect(ats[4]! - ats[0]!).toBeGreaterThanOrEqual(4 * 100);
  });

  it('a larger advertised limit (a TFE operator’s setting) lets the client go faster than the configured 30', async () => {
    clock = new ManualClock(0);
    const s = await server('1000');
    const c = client(s.url, 30);
    await onClock(c.request({ method: 'GET', path: '/first' }));
    await onClock(Promise.all(Array.from({ length: 31 }, (_, i) => c.request({ method: 'GET', path: `/p/${i}` }))));
    // At 30 per second these 31 would span 1 s of the clock.
    const ats = s.hits.slice(1).map((h) => h.at);
    expect(Math.max(...ats) - Math.min(...ats)).toBeLessThan(900);
  });
});

describe('against the TFE sandbox with its real limit (30 per second per token)', () => {
  let sim: TfeSimHandle;
  it('90 concurrent reads with 20 ms latency get no 429 and keep near the limit', async () => {
    clock = new ManualClock(0);
    sim = await startTfeSimulator({ port: 0, faults: { latencyMs: 20 }, clock });
    cleanups.push(() => sim.stop());
    const c = client(`${sim.url}/api/v2`, 30, { Authorization: `Bearer ${sim.tokens.user}` });
    const t0 = clock.now();
    const out = await onClock(Promise.all(Array.from({ length: 90 }, () => c.request({ method: 'GET', path: '/organizations/acme' }))));
    const secs = (clock.now() - t0) / 1000;
    expect(out.every((r) => r.status === 200)).toBe(true);
    expect(c.stats().status429).toBe(0);
    expect(sim.log.entries().filter((e) => e.status === 429)).toHaveLength(0);
    // 90 requests at ≤ 30/s need ≥ 2.9 s; paced well they take little more than the 3.1 s of 28.6/s.
    expect(secs).toBeGreaterThanOrEqual(2.9);
    expect(secs).toBeLessThan(6);
  });
});
