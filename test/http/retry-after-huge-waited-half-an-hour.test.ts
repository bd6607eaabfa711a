import { afterEach, describe, expect, it } from 'vitest';
import { httpLimitsFromEnv } from '../../src/http/limits.js';
import { loopbackFixtures, send } from './server.js';

/*
 * Regression: `Retry-After: 999999` was honoured up to 5 minutes per retry, 6 retries: one request could
 * wait about 30 minutes, silently. Waits now come out of one retry budget per request; a wait that would
 * end past it ends the request at once, with an error saying what the server asked and the budget.
 */
const { server, client, failure } = loopbackFixtures(afterEach);

describe('retries have an overall budget', () => {
  it('a 429 asking for 999999 s ends the request at once, saying what was asked and the budget', async () => {
    const s = await server((_req, res) => send(res, 429, 'slow down', { 'retry-after': '999999' }));
    const c = client({ baseUrl: s.url });
    const e = await failure(c.request({ method: 'GET', path: '/api/v2/organizations/acme/workspaces', subject: 'NoCodeWorkspace/a' }));
    expect(e.code).toBe('http.retry-budget-spent');
    expect(e.message).toContain(`GET ${s.url}/api/v2/organizations/acme/workspaces (NoCodeWorkspace/a)`);
    expect(e.message).toContain('Retry-After: 999999');
    expect(e.message).toContain('retry budget of 2 min');
    expect(e.message).toContain('HTTP 429');
    expect(e.hint).toContain('CONVERGE_HTTP_RETRY_BUDGET');
    expect(s.hits).toHaveLength(1);
  });

  it('a request arriving while the host is paused past the budget is not sent', async () => {
    const s = await server((req, res) => (req.url === '/first' ? send(res, 429, '', { 'retry-after': '600' }) : send(res, 200, 'ok')));
    const c = client({ baseUrl: s.url });
    await failure(c.request({ method: 'GET', path: '/first' }));
    const e = await failure(c.request({ method: 'GET', path: '/second' }));
    expect(e.code).toBe('http.retry-budget-spent');
    expect(s.hits.map((h) => h.url)).toEqual(['/first']);
  });

  it('503s retried with short waits stop when the budget is spent, before the retries run out', async () => {
    const s = await server((_req, res) => send(res, 503, 'busy', { 'retry-after': '0.15' }));
    const c = client({ baseUrl: s.url, retry: { retries: 50 }, limits: { retryBudgetMs: 400 } });
    const e = await failure(c.request({ method: 'GET', path: '/v1/acl/policies' }));
    expect(e.code).toBe('http.retry-budget-spent');
    expect(e.status).toBe(503);
    expect(s.hits.length).toBeGreaterThan(1);
    expect(s.hits.length).toBeLessThan(10);
  });

  it('waits within the budget are honoured as before', async () => {
    const s = await server((_req, res, _hit, n) => (n === 1 ? send(res, 429, '', { 'retry-after': '0' }) : send(res, 200, 'ok')));
    const c = client({ baseUrl: s.url });
    expect((await c.request({ method: 'GET', path: '/x' })).status).toBe(200);
  });

  it('CONVERGE_HTTP_RETRY_BUDGET sets the budget', () => {
    expect(httpLimitsFromEnv({ CONVERGE_HTTP_RETRY_BUDGET: '10m' }).retryBudgetMs).toBe(600_000);
  });
});
