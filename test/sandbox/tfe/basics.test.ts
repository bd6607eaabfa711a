import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_API, startSim, type Sim } from './helpers.js';

describe('TFE sandbox: conventions (docs/reference/hcp-terraform-api.md §8)', () => {
  let sim: Sim;
  beforeAll(async () => {
    sim = await startSim();
  });
  afterAll(async () => sim.s.stop());

  it('ping answers 204 with the headers go-tfe reads, without a token', async () => {
    const r = await sim.anon.get('/ping');
    expect(r.status).toBe(204);
    expect(r.headers.get('x-ratelimit-limit')).toBe('30');
    expect(r.headers.get('tfp-api-version')).toBeTruthy();
    expect(r.headers.get('tfp-appname')).toBe('HCP Terraform');
  });

  it('service discovery names tfe.v2.2', async () => {
    const r = await sim.anon.get('/.well-known/terraform.json');
    expect(r.status).toBe(200);
    expect(r.body['tfe.v2.2']).toBe('/api/v2/');
  });

  it('a missing or unknown token is a 401 with the documented body', async () => {
    for (const c of [sim.anon, { get: (p: string) => sim.anon.get(p, { Authorization: 'Bearer nope' }) }]) {
      const r = await c.get('/organizations/acme');
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ errors: [{ status: '401', title: 'unauthorized' }] });
    }
  });

  it('all three token kinds read; account details tell them apart', async () => {
    for (const [c, type] of [
      [sim.user, null],
      [sim.team, 'teams'],
      [sim.org, 'organizations'],
    ] as const) {
      expect((await c.get('/organizations/acme')).status).toBe(200);
      const a = await c.get('/account/details');
      expect(a.status).toBe(200);
      expect(a.body.data.relationships['authenticated-resource']?.data.type ?? null).toBe(type);
    }
  });

  it('responses are JSON:API; errors carry string statuses; unknown paths are 404 not found', async () => {
    const ok = await sim.user.get('/organizations/acme');
    expect(ok.headers.get('content-type')).toBe(JSON_API);
    expect(ok.body.data).toMatchObject({ id: 'acme', type: 'organizations' });
    const r = await sim.user.get('/organizations/other');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ errors: [{ status: '404', title: 'not found' }] });
    expect((await sim.user.get('/nothing/here')).status).toBe(404);
  });

  it('415 when a mutating request lacks the JSON:API content type, even without a body', async () => {
    for (const method of ['POST', 'PATCH', 'DELETE']) {
      const r = await sim.user.req(method, '/no-code-modules/nocode-x', undefined, { 'Content-Type': 'application/json' });
      expect(r.status).toBe(415);
      expect(r.body.errors[0].status).toBe('415');
    }
  });

  it('a body that is not JSON is a 400; a document without data is a 422 pointing at /data', async () => {
    const bad = await sim.user.post('/organizations/acme/no-code-modules', '{nope');
    expect(bad.status).toBe(400);
    const noData = await sim.user.post('/organizations/acme/no-code-modules', { nope: 1 });
    expect(noData.status).toBe(422);
    expect(noData.body.errors[0].source.pointer).toBe('/data');
  });

  it('every answer carries X-RateLimit-Limit, including errors', async () => {
    expect((await sim.anon.get('/organizations/acme')).headers.get('x-ratelimit-limit')).toBe('30');
  });

  it('logs API requests as service tfe, and not the control endpoints', async () => {
    sim.s.log.clear();
    await sim.user.get('/organizations/acme');
    await fetch(`${sim.s.url}/__sandbox/log`);
    const entries = sim.s.log.entries();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ service: 'tfe', method: 'GET', path: '/api/v2/organizations/acme', status: 200 });
  });
});
