import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { createServer as createHttpsServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { runCli } from '../e2e/harness.js';
import { inProcessWith, planning } from '../library/story.js';
import { writeOneOfEach } from './fixtures.js';

/*
 * TLS verification is on by default: a self-signed HTTPS server (an openssl certificate made at test
 * time, in front of the sandbox) is refused before any request reaches it, so the token is never sent;
 * NOMAD_CACERT naming its certificate makes it trusted (reference: Nomad CLI's NOMAD_CACERT), a
 * different CA does not, and NOMAD_SKIP_VERIFY is the explicit opt-out. HCP Terraform has no CA setting
 * of its own in converge: Node's NODE_EXTRA_CA_CERTS is how to trust a private CA there.
 * The default refusal and HCP Terraform (NODE_EXTRA_CA_CERTS is read when Node starts) run the built CLI; the
 * other Nomad cases run the plan command's own code in-process (`inProcessWith`), which reads NOMAD_CACERT and
 * NOMAD_SKIP_VERIFY from the environment it is given as the process does.
 */

/** How the refusal reads today: the TLS error code (e.g. DEPTH_ZERO_SELF_SIGNED_CERT) in the network error. */
const TLS_REFUSED = /SELF_SIGNED|CERT_|certificate/i;

interface TlsProxy {
  url: string;
  /** Requests that got past the TLS handshake, with the token header they carried. */
  hits: { url: string; token: string | undefined }[];
  server: Server;
}

let dir: string;
let sandbox: Sandbox;
const proxies: TlsProxy[] = [];

function certificate(name: string): { key: string; cert: string } {
  const key = join(dir, `${name}.key`);
  const cert = join(dir, `${name}.pem`);
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '2', '-subj', `/CN=${name}`, '-addext', 'subjectAltName=IP:127.0.0.1', '-addext', 'basicConstraints=critical,CA:TRUE'], { stdio: 'ignore' });
  return { key, cert };
}

async function tlsProxy(upstream: string, files: { key: string; cert: string }): Promise<TlsProxy> {
  const target = new URL(upstream);
  const hits: TlsProxy['hits'] = [];
  const server = createHttpsServer({ key: await readFile(files.key), cert: await readFile(files.cert) }, (req, res) => {
    hits.push({ url: req.url ?? '', token: (req.headers['x-nomad-token'] ?? req.headers.authorization) as string | undefined });
    const up = httpRequest({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: { ...req.headers, host: target.host } }, (upRes) => {
      res.writeHead(upRes.statusCode ?? 502, upRes.headers);
      upRes.pipe(res);
    });
    up.on('error', () => res.writeHead(502).end());
    req.pipe(up);
  });
  // The refused handshakes are expected; do not let them become unhandled errors.
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const p = { url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, hits, server };
  proxies.push(p);
  return p;
}

let good: { key: string; cert: string };
let other: { key: string; cert: string };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'converge-tls-'));
  good = certificate('converge-test-server');
  other = certificate('some-other-ca');
  sandbox = await startSandbox({ stepDelayMs: 5 });
  await writeOneOfEach(dir);
});

afterAll(async () => {
  for (const p of proxies) {
    p.server.closeAllConnections();
    await new Promise<void>((resolve) => p.server.close(() => resolve()));
  }
  await sandbox?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

function env(extra: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: dir, ...sandbox.env, ...extra };
}

/** `converge plan [--detailed-exitcode] nomad.yaml` in-process, with `extra` over the environment. */
const planNomad = (extra: Record<string, string>, detailedExitcode = false) =>
  inProcessWith({ cwd: dir, env: env(extra) }, planning(detailedExitcode ? { detailedExitcode } : {}, ['nomad.yaml']));

describe('TLS verification (self-signed HTTPS in front of the sandbox)', () => {
  it('Nomad: a self-signed server is refused by default, before any request or token reaches it', async () => {
    const p = await tlsProxy(sandbox.nomad.url, good);
    const r = await runCli(['plan', 'nomad.yaml'], { cwd: dir, env: env({ NOMAD_ADDR: p.url }) });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(TLS_REFUSED);
    // The hint is about trust, not reachability.
    expect(r.stderr).toMatch(/not trusted: point NOMAD_CACERT/);
    expect(r.stderr).not.toMatch(/^\s+at /m);
    expect(r.stderr).not.toContain(sandbox.env.NOMAD_TOKEN);
    expect(p.hits).toEqual([]);
  });

  it('Nomad: a trusted certificate for another name says the name does not match, not "trust the CA" (regression)', async () => {
    const p = await tlsProxy(sandbox.nomad.url, good);
    const byName = p.url.replace('127.0.0.1', 'localhost');
    const r = await planNomad({ NOMAD_ADDR: byName, NOMAD_CACERT: good.cert });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('ERR_TLS_CERT_ALTNAME_INVALID');
    expect(r.stderr).toContain('is for another name (IP Address:127.0.0.1), not localhost');
    expect(r.stderr).not.toContain('not trusted');
    expect(p.hits).toEqual([]);
  });

  it('Nomad: NOMAD_CACERT naming the certificate makes it trusted', async () => {
    const p = await tlsProxy(sandbox.nomad.url, good);
    const r = await planNomad({ NOMAD_ADDR: p.url, NOMAD_CACERT: good.cert }, true);
    expect(r.stderr).not.toMatch(TLS_REFUSED);
    expect(r.code).toBe(2);
    expect(p.hits.length).toBeGreaterThan(0);
    // The identity probe (`GET /v1/regions`, which needs no ACL) goes without the token; every other request has it.
    expect(p.hits.filter((h) => h.url !== '/v1/regions').every((h) => h.token === sandbox.env.NOMAD_TOKEN)).toBe(true);
    expect(p.hits.filter((h) => h.url === '/v1/regions').every((h) => h.token === undefined)).toBe(true);
  });

  it('Nomad: NOMAD_CACERT naming a different CA is refused', async () => {
    const p = await tlsProxy(sandbox.nomad.url, good);
    const r = await planNomad({ NOMAD_ADDR: p.url, NOMAD_CACERT: other.cert });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(TLS_REFUSED);
    expect(p.hits).toEqual([]);
  });

  it('Nomad: NOMAD_SKIP_VERIFY=true is the explicit opt-out', async () => {
    const p = await tlsProxy(sandbox.nomad.url, good);
    const r = await planNomad({ NOMAD_ADDR: p.url, NOMAD_SKIP_VERIFY: 'true' }, true);
    expect(r.code).toBe(2);
    // Honoured, but never silently (regression): said once.
    expect(r.stderr.match(/NOMAD_SKIP_VERIFY is set: the certificate of https:\/\/127\.0\.0\.1:\d+ is not checked/g)).toHaveLength(1);
    expect(p.hits.length).toBeGreaterThan(0);
  });

  it('HCP Terraform: a self-signed server is refused by default, trusted through NODE_EXTRA_CA_CERTS', async () => {
    const p = await tlsProxy(sandbox.tfe.url, good);
    const refused = await runCli(['plan', 'tfe.yaml'], { cwd: dir, env: env({ TFE_ADDRESS: p.url }) });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(TLS_REFUSED);
    expect(refused.stderr).not.toContain(sandbox.env.TFE_TOKEN);
    expect(p.hits).toEqual([]);
    const trusted = await runCli(['plan', '--detailed-exitcode', 'tfe.yaml'], { cwd: dir, env: env({ TFE_ADDRESS: p.url, NODE_EXTRA_CA_CERTS: good.cert }) });
    expect(trusted.stderr).not.toMatch(TLS_REFUSED);
    expect(trusted.code).toBe(2);
    expect(p.hits.length).toBeGreaterThan(0);
  });
});
