import { afterEach, describe, expect, it } from 'vitest';
import { createHttpClient } from '../../src/http/client.js';
import { send, startServer } from './server.js';

/*
 * Regression: HCP Terraform's run lists are rationed at 30 a minute (docs/reference/hcp-terraform-runs.md). A run
 * list's 429 closed the Retry-After gate of the whole host for its X-RateLimit-Reset (up to a minute), and its
 * X-RateLimit-Limit was read as the host's limit per second: every other request waited on one endpoint's ration.
 * A request of a rationed family (`rateScope`) now waits on a gate of its own and never moves the host's pace.
 */

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('a rationed endpoint family (rateScope)', () => {
  it('its 429 (a long X-RateLimit-Reset, a small X-RateLimit-Limit) stalls neither the other requests nor the host pace', async () => {
    const s = await startServer((req, res) => {
      if (req.url?.startsWith('/runs-list')) {
        send(res, 429, JSON.stringify({ errors: [{ status: 429, title: 'Too many requests' }] }), { 'x-ratelimit-limit': '1', 'x-ratelimit-reset': '120' });
      } else {
        send(res, 200, '{}', { 'x-ratelimit-limit': '1000' });
      }
    });
    cleanups.push(() => s.stop());
    const c = createHttpClient({ baseUrl: s.url, rateLimitPerSecond: 1000, retry: { retries: 0 } });
    cleanups.push(() => c.close());

    const refused = await c.request({ method: 'GET', path: '/runs-list', rateScope: 'run-lists' });
    expect(refused.status).toBe(429);
    // With the host's gate closed for two minutes (or the pace at 1 a second) these would not finish in the test's time.
    const others = await Promise.all(Array.from({ length: 20 }, (_, i) => c.request({ method: 'GET', path: `/workspaces/${i}` })));
    expect(new Set(others.map((r) => r.status))).toEqual(new Set([200]));
    expect(s.hits.filter((h) => h.url.startsWith('/workspaces/'))).toHaveLength(20);
    expect(c.stats().status429).toBe(1);
  }, 15_000);
});
