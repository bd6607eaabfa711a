import { afterEach, describe, expect, it } from 'vitest';
import { startSim, waitFor, type Sim } from './helpers.js';

/*
 * HCP Terraform's two run lists ("List Runs in a Workspace", "List Runs in an Organization") have "an adjusted rate
 * limit of 30 requests per minute" where most endpoints allow 30 a second (docs/reference/hcp-terraform-runs.md).
 * The sandbox rations them per token over a rolling minute, on by default, and the other endpoints stay open.
 */

describe('TFE sandbox: the run lists are rationed at 30 a minute per token', () => {
  let sim: Sim | undefined;
  afterEach(async () => sim?.s.stop());

  async function workspaceId(s: Sim): Promise<string> {
    const created = await s.user.post('/organizations/acme/workspaces', { data: { type: 'workspaces', attributes: { name: 'rationed' } } });
    expect(created.status).toBe(201);
    return (created.body as { data: { id: string } }).data.id;
  }

  it('the 31st run list of a minute gets the documented 429, X-RateLimit-Limit 30 and X-RateLimit-Reset; other reads and tokens go on', async () => {
    sim = await startSim();
    const id = await workspaceId(sim);
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      const path = i % 2 === 0 ? `/workspaces/${id}/runs` : '/organizations/acme/runs';
      const r = await sim.user.get(path);
      statuses.push(r.status);
      expect(r.headers.get('x-ratelimit-limit')).toBe('30');
    }
    expect(new Set(statuses)).toEqual(new Set([200]));
    const refused = await sim.user.get(`/workspaces/${id}/runs`);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ errors: [{ detail: "You have exceeded the API's rate limit.", status: 429, title: 'Too many requests' }] });
    expect(refused.headers.get('x-ratelimit-limit')).toBe('30');
    const reset = Number(refused.headers.get('x-ratelimit-reset'));
    expect(reset).toBeGreaterThan(0);
    expect(reset).toBeLessThanOrEqual(60);
    expect((await sim.user.get('/organizations/acme/runs')).status).toBe(429);
    // Everything else, and the same list with another token, is not rationed.
    expect((await sim.user.get(`/workspaces/${id}?include=current_run`)).status).toBe(200);
    expect((await sim.user.get('/organizations/acme/workspaces?include=current_run')).status).toBe(200);
    expect((await sim.team.get(`/workspaces/${id}/runs`)).status).toBe(200);
    // The refused requests are in the log as the limiter's.
    const log = sim.s.log.entries({ service: 'tfe' }).filter((e) => e.status === 429);
    expect(log.map((e) => e.fault)).toEqual(['rate-limit', 'rate-limit']);
  });

  it('the organization runs list pages every workspace’s runs, newest first', async () => {
    sim = await startSim();
    const id = await workspaceId(sim);
    const queued = await sim.user.post('/runs', { data: { type: 'runs', attributes: {}, relationships: { workspace: { data: { type: 'workspaces', id } } } } });
    expect(queued.status).toBe(201);
    const list = await sim.user.get('/organizations/acme/runs');
    expect(list.status).toBe(200);
    const doc = list.body as { data: { id: string }[]; meta: { pagination: { 'total-count': number } } };
    expect(doc.data[0]?.id).toBe((queued.body as { data: { id: string } }).data.id);
    expect((await sim.user.get('/organizations/other/runs')).status).toBe(404);
  });

  it('the ration is tunable: off, or another number per minute (control and HTTP)', async () => {
    sim = await startSim({ runListRation: false });
    const s = sim;
    const id = await workspaceId(s);
    for (let i = 0; i < 35; i++) expect((await s.user.get(`/workspaces/${id}/runs`)).status).toBe(200);
    const put = (body: unknown) => fetch(`${s.s.url}/__sandbox/run-list-ration`, { method: 'PUT', body: JSON.stringify(body) });
    expect((await put({ perMinute: 2 })).status).toBe(200);
    expect((await s.user.get(`/workspaces/${id}/runs`)).headers.get('x-ratelimit-limit')).toBe('2');
    expect((await s.user.get(`/workspaces/${id}/runs`)).status).toBe(200);
    expect((await s.user.get(`/workspaces/${id}/runs`)).status).toBe(429);
    expect((await put({ perMinute: 0 })).status).toBe(400);
    s.s.control.setRunListRation(false);
    await waitFor(async () => (await s.user.get(`/workspaces/${id}/runs`)).status === 200, 'the ration to be off');
  });
});
