import { afterEach, describe, expect, it } from 'vitest';
import { httpLimitsFromEnv } from '../../src/http/limits.js';
import { loopbackFixtures, send } from './server.js';

/*
 * Regression: the HTTP layer read every answer whole (`res.body.text()`) and bounded only the gap
 * between two chunks (undici's bodyTimeout). A never-ending 200 grew converge's memory without limit;
 * a body trickling one byte at a time below the idle timeout held a request for ever. Each attempt is
 * now cut at a body size and a deadline, and the error names the origin and the limit.
 */
const { server, client, failure } = loopbackFixtures(afterEach);
const timers: NodeJS.Timeout[] = [];
afterEach(() => {
  for (const t of timers.splice(0)) clearInterval(t);
});

describe('a response body is bounded in size and time', () => {
  it('a never-ending 200 is cut at the size cap, not read whole, and not repeated', async () => {
    let written = 0;
    const s = await server((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 'a');
      const pump = () => {
        while (!res.destroyed && written < 512 * 1024 * 1024) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
      };
      res.on('close', () => undefined);
      pump();
    });
    const c = client({ baseUrl: s.url, limits: { maxBodyBytes: 1024 * 1024 } });
    const e = await failure(c.request({ method: 'GET', path: '/api/v2/workspaces/ws-1', subject: 'NoCodeWorkspace/a' }));
    expect(e.code).toBe('http.response-too-large');
    expect(e.message).toContain(s.url);
    expect(e.message).toContain('1 MB');
    expect(e.message).toContain('NoCodeWorkspace/a');
    expect(e.hint).toContain('CONVERGE_HTTP_MAX_BODY');
    expect(s.hits).toHaveLength(1);
    // The server was stopped long before its 512 MB: the socket was closed, not drained.
    expect(written).toBeLessThan(64 * 1024 * 1024);
  });

  it('a Content-Length above the cap fails before the body is read', async () => {
    const s = await server((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(50 * 1024 * 1024) });
      res.write('{');
    });
    const c = client({ baseUrl: s.url, limits: { maxBodyBytes: 1024 * 1024 } });
    const e = await failure(c.request({ method: 'GET', path: '/v1/acl/auth-methods' }));
    expect(e.code).toBe('http.response-too-large');
  });

  it('a body trickling below the idle timeout ends at the deadline, naming the origin and the limit', async () => {
    const s = await server((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{');
      const t = setInterval(() => res.write(' '), 20);
      timers.push(t);
      res.on('close', () => clearInterval(t));
    });
    // The idle timeout (30 s) is never reached: a byte comes every 20 ms.
    const c = client({ baseUrl: s.url, limits: { deadlineMs: 300 } });
    const e = await failure(c.request({ method: 'GET', path: '/v1/acl/policies' }));
    expect(e.code).toBe('http.deadline');
    expect(e.message).toContain(s.url);
    expect(e.message).toContain('300 ms');
    expect(e.hint).toContain('CONVERGE_HTTP_DEADLINE');
    expect(s.hits).toHaveLength(1);
  });

  it('a create cut by a limit is looked up once by its read-back, never guessed', async () => {
    const s = await server((req, res) => {
      if (req.method === 'POST') {
        res.writeHead(201, { 'content-type': 'application/json' });
        res.write('{"data":');
        return;
      }
      send(res, 200, '{"data":{"id":"ws-1"}}', { 'content-type': 'application/json' });
    });
    const c = client({ baseUrl: s.url, limits: { deadlineMs: 200 } });
    const res = await c.request({
      method: 'POST',
      path: '/workspaces',
      body: {},
      readBack: async () => {
        const r = await c.request({ method: 'GET', path: '/workspaces/ws-1' });
        return r.status === 200 ? r : undefined;
      },
    });
    expect(res.text).toBe('{"data":{"id":"ws-1"}}');
    expect(s.hits.map((h) => h.method)).toEqual(['POST', 'GET']);
  });

  it('answers within the limits are read as before', async () => {
    const big = 'x'.repeat(900 * 1024);
    const s = await server((_req, res) => send(res, 200, big));
    const c = client({ baseUrl: s.url, limits: { maxBodyBytes: 1024 * 1024 } });
    expect((await c.request({ method: 'GET', path: '/big' })).text).toBe(big);
  });

  it('the limits come from CONVERGE_HTTP_MAX_BODY and CONVERGE_HTTP_DEADLINE, and a bad value is a user error', () => {
    expect(httpLimitsFromEnv({ CONVERGE_HTTP_MAX_BODY: '32MB', CONVERGE_HTTP_DEADLINE: '5m' })).toMatchObject({ maxBodyBytes: 32 * 1024 * 1024, deadlineMs: 300_000 });
    expect(httpLimitsFromEnv({})).toMatchObject({ maxBodyBytes: 8 * 1024 * 1024, deadlineMs: 120_000 });
    expect(() => httpLimitsFromEnv({ CONVERGE_HTTP_MAX_BODY: 'lots' })).toThrow(/CONVERGE_HTTP_MAX_BODY="lots" is not a size/);
    expect(() => httpLimitsFromEnv({ CONVERGE_HTTP_DEADLINE: 'soon' })).toThrow(/CONVERGE_HTTP_DEADLINE="soon" is not a duration/);
  });
});
