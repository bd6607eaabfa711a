import { writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, EXAMPLE_SECRETS, runCli, tempProject } from './run-cli.js';

/*
 * NOMAD_ADDR or TFE_ADDRESS pointing at another server (a web server's 404 page, a
 * service answering other JSON or plain text) quoted that server's body, or read a 404 page as "not
 * found" (planning creates). Now converge names the address and asks whether the setting is right,
 * and sends nothing else once it knows.
 */

type Answer = { status: number; type: string; body: string };

const NGINX_404: Answer = {
  status: 404,
  type: 'text/html',
  body: '<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head><body><center><h1>404 Not Found</h1></center><hr><center>nginx</center></body></html>',
};
const WELCOME_200: Answer = { status: 200, type: 'text/html; charset=utf-8', body: '<html><body>Welcome to nginx!</body></html>' };
const OTHER_JSON: Answer = { status: 200, type: 'application/json', body: '{"service":"grafana","version":"11"}' };
const PLAIN_TEXT: Answer = { status: 200, type: 'text/plain', body: 'hello from another service' };

let server: Server;
let address = '';
let answer: Answer = NGINX_404;
const methods: string[] = [];

beforeAll(async () => {
  assertBuilt();
  server = createServer((req, res) => {
    methods.push(req.method ?? '');
    res.writeHead(answer.status, { 'content-type': answer.type });
    res.end(answer.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  address = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
afterEach(() => {
  methods.length = 0;
});

async function plan(service: 'nomad' | 'tfe', a: Answer) {
  answer = a;
  const project = await tempProject(['settings.yaml', service]);
  try {
    const env: Record<string, string> = service === 'nomad' ? { NOMAD_ADDR: address, NOMAD_TOKEN: 'a-token' } : { TFE_ADDRESS: address, TFE_TOKEN: 'a-token' };
    return await runCli(['plan', service, 'settings.yaml'], project.dir, cleanEnv(project.dir, { ...EXAMPLE_SECRETS, ...env }));
  } finally {
    await project.cleanup();
  }
}

describe('an address that points at another server', () => {
  for (const [service, setting, api] of [
    ['nomad', 'NOMAD_ADDR', 'Nomad'],
    ['tfe', 'TFE_ADDRESS', 'HCP Terraform'],
  ] as const) {
    it(`${setting}: a 404 web page says which address answered and asks whether ${setting} is right, without quoting it`, async () => {
      const r = await plan(service, NGINX_404);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`Error: ${address} answered GET `);
      expect(r.stderr).toContain(`with a web page (HTTP 404, "404 Not Found"), not the ${api} API: is ${setting} right?`);
      expect(r.stderr).toContain(`${setting} is ${address}`);
      expect(r.stderr).not.toContain('nginx');
      expect(r.stderr).not.toContain('<');
      // It stopped at the first answers (HCP Terraform reads two lists at once): only reads, nothing written.
      expect(methods.length).toBeGreaterThan(0);
      expect(methods.length).toBeLessThanOrEqual(2);
      expect(methods.every((m) => m === 'GET')).toBe(true);
    });

    it(`${setting}: a 200 web page is not taken for the API either`, async () => {
      const r = await plan(service, WELCOME_200);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`with a web page (HTTP 200), not the ${api} API: is ${setting} right?`);
      expect(r.stderr).not.toContain('Welcome');
    });

    it(`${setting}: JSON of another shape, or plain text, names the address and the setting`, async () => {
      for (const a of [OTHER_JSON, PLAIN_TEXT]) {
        const r = await plan(service, a);
        expect(r.code).toBe(1);
        // The client's first read identifies the service: this is not it.
        expect(r.stderr).toContain(`${address} is not the ${api} API: GET `);
        expect(r.stderr).toContain(`Is ${setting} right?`);
        expect(r.stderr).toContain(`${setting} is ${address}`);
        expect(r.stderr).not.toContain('grafana');
        expect(r.stderr).not.toContain('hello from another service');
        expect(methods.every((m) => m === 'GET')).toBe(true);
      }
    });
  }

  it('the Nomad state backend does not read a 404 page as "no state yet"', async () => {
    answer = NGINX_404;
    const project = await tempProject(['nomad']);
    try {
      await writeFile(join(project.dir, 'settings.yaml'), 'kind: Settings\nname: settings\nspec:\n  state:\n    backend: nomad\n');
      const env = cleanEnv(project.dir, { ...EXAMPLE_SECRETS, NOMAD_ADDR: address, NOMAD_TOKEN: 'a-token' });
      const r = await runCli(['apply', '--auto-approve'], project.dir, env);
      expect(r.code).toBe(1);
      // The first request (the read that identifies Nomad) already says it; nothing else is sent.
      expect(r.stderr).toContain(`${address} answered GET /v1/regions`);
      expect(r.stderr).toContain('not the Nomad API: is NOMAD_ADDR right?');
      expect(methods).toHaveLength(1);
    } finally {
      await project.cleanup();
    }
  });
});
