import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLoopback } from '../../src/http/plaintext-token.js';
import { runCli } from '../e2e/harness.js';
import { writeOneOfEach } from './fixtures.js';

/*
 * A token is never sent to a host other than the configured one. The configured address (127.0.0.1)
 * answers every request with a redirect to a recorder on another loopback host (127.0.0.2) or another
 * port; the built CLI must refuse to follow it (http.redirect-refused, src/http/README.md) and the
 * recorder must see no request at all, let alone a token header.
 */
const NOMAD_TOKEN = 'origin-canary-nomad-V3b7';
const TFE_TOKEN = 'origin-canary-tfe-K9d2';

interface Recorder {
  url: string;
  hits: { url: string; headers: IncomingHttpHeaders }[];
  server: Server;
}

async function listen(server: Server, host: string): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return `http://${host}:${(server.address() as AddressInfo).port}`;
}

async function recorder(host: string): Promise<Recorder> {
  const hits: Recorder['hits'] = [];
  const server = createServer((req, res) => {
    hits.push({ url: req.url ?? '', headers: req.headers });
    res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
  });
  return { url: await listen(server, host), hits, server };
}

async function redirector(to: string, status: number): Promise<{ url: string; server: Server; hits: number }> {
  const r = { url: '', server: createServer(), hits: 0 };
  r.server.on('request', (req, res) => {
    r.hits += 1;
    res.writeHead(status, { location: `${to}${req.url ?? '/'}` }).end();
  });
  r.url = await listen(r.server, '127.0.0.1');
  return r;
}

const close = (s: Server) => new Promise<void>((resolve) => {
  s.closeAllConnections();
  s.close(() => resolve());
});

let dir: string;
const servers: Server[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'converge-origin-'));
  await writeOneOfEach(dir);
});

afterAll(async () => {
  await Promise.all(servers.map(close));
  await rm(dir, { recursive: true, force: true });
});

function env(extra: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: dir, NOMAD_TOKEN, TFE_TOKEN, TFE_ORGANIZATION: 'acme', ...extra };
}

describe('a redirect to another origin never carries the token', () => {
  for (const [what, host, statuses] of [
    ['another loopback host (127.0.0.2)', '127.0.0.2', [302, 307, 308]],
    ['another port of the same host', '127.0.0.1', [307]],
  ] as const) {
    for (const status of statuses) {
      it(`Nomad: ${status} to ${what} is refused and the other server sees nothing`, async () => {
        const rec = await recorder(host);
        const red = await redirector(rec.url, status);
        servers.push(rec.server, red.server);
        const r = await runCli(['plan', 'nomad.yaml'], { cwd: dir, env: env({ NOMAD_ADDR: red.url }) });
        expect(r.code).toBe(1);
        expect(r.stderr).toContain('redirected');
        expect(r.stderr).toContain(rec.url.replace('http://', ''));
        expect(r.stderr).not.toMatch(/^\s+at /m);
        expect(r.stdout + r.stderr).not.toContain(NOMAD_TOKEN);
        expect(red.hits).toBeGreaterThan(0);
        expect(rec.hits).toEqual([]);
      });
    }
  }

  it('HCP Terraform: a 307 to 127.0.0.2 is refused and the other server sees nothing', async () => {
    const rec = await recorder('127.0.0.2');
    const red = await redirector(rec.url, 307);
    servers.push(rec.server, red.server);
    const r = await runCli(['plan', 'tfe.yaml'], { cwd: dir, env: env({ TFE_ADDRESS: red.url }) });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('redirected');
    expect(r.stdout + r.stderr).not.toContain(TFE_TOKEN);
    expect(red.hits).toBeGreaterThan(0);
    expect(rec.hits).toEqual([]);
  });

  it('a same-origin redirect is followed, with the token, to the configured host only', async () => {
    const hits: { url: string; token: string | undefined }[] = [];
    const server = createServer((req, res) => {
      hits.push({ url: req.url ?? '', token: req.headers['x-nomad-token'] as string | undefined });
      if (req.url?.startsWith('/v1/acl/auth-methods')) res.writeHead(307, { location: `/moved${req.url}` }).end();
      else if (req.url === '/v1/regions') res.writeHead(200, { 'content-type': 'application/json' }).end('["global"]');
      else res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    });
    const url = await listen(server, '127.0.0.1');
    servers.push(server);
    const r = await runCli(['plan', '--detailed-exitcode', 'nomad.yaml'], { cwd: dir, env: env({ NOMAD_ADDR: url }) });
    expect(r.stderr).not.toContain('redirected');
    expect(r.code).toBe(2);
    expect(hits.map((h) => h.url)).toContain('/moved/v1/acl/auth-methods');
    // The read that identifies Nomad goes first and needs no token; every other request carries it.
    expect(hits[0]).toEqual({ url: '/v1/regions', token: undefined });
    expect(hits.slice(1).every((h) => h.token === NOMAD_TOKEN)).toBe(true);
  });
});

/*
 * The plain-http warning (http.plaintext-token) decides by the configured host name. Testing the
 * warning end to end needs a token sent to a non-loopback address, i.e. traffic off this machine, which
 * this workplace forbids; so the decision function is tested directly, and the CLI is checked to stay
 * quiet for loopback.
 */
describe('plain http: which hosts count as loopback (no warning)', () => {
  it('loopback names and addresses', () => {
    for (const h of ['127.0.0.1', '127.0.0.2', '127.255.255.254', 'localhost', 'LOCALHOST', '[::1]', '::1']) expect(isLoopback(h), h).toBe(true);
  });

  it('everything else warns: private ranges, look-alike names, unspecified addresses', () => {
    for (const h of ['10.0.0.1', '192.168.1.10', '172.16.0.1', '0.0.0.0', '[::]', 'nomad.internal', '127.0.0.1.nip.io', 'localhost.evil.example', '128.0.0.1', '[fe80::1]', '1127.0.0.1'])
      expect(isLoopback(h), h).toBe(false);
  });

  it('the URL parser normalises odd spellings of 127.0.0.1 before the check', () => {
    for (const spelled of ['http://127.1:4646', 'http://0x7f.0.0.1:4646', 'http://2130706433:4646']) expect(isLoopback(new URL(spelled).hostname), spelled).toBe(true);
  });

  it('the CLI does not warn for a loopback address', async () => {
    const rec = await recorder('127.0.0.1');
    servers.push(rec.server);
    const r = await runCli(['plan', 'nomad.yaml'], { cwd: dir, env: env({ NOMAD_ADDR: rec.url }) });
    expect(r.stderr).not.toContain('plain http');
    expect(rec.hits.length).toBeGreaterThan(0);
  });
});
