import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpClient } from '../../src/http/client.js';
import type { HttpClient } from '../../src/http/types.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { createNomadVariablesBackend } from '../../src/state/nomad/backend.js';
import { waitFor } from '../e2e/harness.js';

/*
 * Regression: a lock renewal that hung on a silent Nomad (no answer; the HTTP layer waits and retries
 * for minutes) went on after the lock was lost or released, and kept the process alive: an apply that
 * lost its lock exited at 229 s instead of ~31 s. A renewal in flight is now aborted when the lock is
 * lost or released: its connection closes at once. The HTTP client here waits 10 minutes for headers,
 * so only the abort can close it within the test's time.
 */
interface HangingProxy {
  url: string;
  /** Renewals received, and whether the client has closed each one's connection. */
  renewals: { closed: boolean }[];
  stop(): Promise<void>;
}

async function renewalsHang(upstream: string): Promise<HangingProxy> {
  const target = new URL(upstream);
  const renewals: { closed: boolean }[] = [];
  const server: Server = createServer((req, res) => {
    if ((req.url ?? '').includes('lock-renew')) {
      const r = { closed: false };
      renewals.push(r);
      res.on('close', () => (r.closed = true));
      return; // never answered
    }
    const up = httpRequest({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: { ...req.headers, host: target.host } }, (upRes) => {
      res.writeHead(upRes.statusCode ?? 502, upRes.headers);
      upRes.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    renewals,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let sandbox: Sandbox | undefined;
let proxy: HangingProxy | undefined;
let http: HttpClient | undefined;
afterEach(async () => {
  await http?.close().catch(() => undefined);
  await proxy?.stop();
  await sandbox?.stop();
  sandbox = proxy = http = undefined;
});

async function lockBehindHangingRenewals() {
  sandbox = await startSandbox({});
  proxy = await renewalsHang(sandbox.nomad.url);
  http = createHttpClient({ baseUrl: proxy.url, timeoutMs: 600_000 });
  const backend = createNomadVariablesBackend({ address: proxy.url, token: sandbox.nomad.managementToken, path: 'converge/state', lockTtl: '10s', http });
  return { lock: await backend.lock('apply', { timeoutMs: 0 }), renewals: proxy.renewals };
}

describe('a hung lock renewal outlived its lock', () => {
  it('is aborted when the lock is released', async () => {
    const { lock, renewals } = await lockBehindHangingRenewals();
    await waitFor(() => renewals.length === 1, 8_000, 'the first renewal');
    await lock.release();
    await waitFor(() => renewals[0]?.closed === true, 3_000, 'the hung renewal to be dropped');
    expect(renewals.every((r) => r.closed)).toBe(true);
  }, 20_000);

  it('is aborted when the lock is lost (no renewal succeeded within the TTL)', async () => {
    const { lock, renewals } = await lockBehindHangingRenewals();
    const lost = lock.lostSignal as AbortSignal;
    await waitFor(() => lost.aborted, 15_000, 'the lock to be lost');
    expect((lost.reason as Error).message).toMatch(/was lost: no lease renewal succeeded for 10 s/);
    await waitFor(() => renewals.length > 0 && renewals.every((r) => r.closed), 3_000, 'the hung renewal to be dropped');
    await lock.release();
  }, 25_000);
});
