import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/async/manual-clock.js';
import { startSim, type Sim } from './helpers.js';

describe('TFE sandbox: rate limit (docs/reference/hcp-terraform-api.md §8)', () => {
  let sim: Sim | undefined;
  afterEach(async () => sim?.s.stop());

  it('a burst of 40 requests within a second gets 429s with the documented body and headers', async () => {
    sim = await startSim({ rateLimit: { perSecond: 30 } });
    // Fired together so the burst lands well within one second even on a slow machine.
    const c = sim.user;
    const results = await Promise.all(Array.from({ length: 40 }, () => c.get('/organizations/acme')));
    const limited = results.filter((r) => r.status === 429);
    expect(results.filter((r) => r.status === 200).length).toBe(30);
    expect(limited.length).toBe(10);
    const r = limited[0];
    expect(r?.body).toEqual({ errors: [{ detail: "You have exceeded the API's rate limit.", status: 429, title: 'Too many requests' }] });
    expect(r?.headers.get('x-ratelimit-limit')).toBe('30');
    expect(Number(r?.headers.get('x-ratelimit-reset'))).toBeGreaterThan(0);
    expect(Number(r?.headers.get('x-ratelimit-reset'))).toBeLessThanOrEqual(1);
    // Not documented by the real service, so not sent unless a test asks for it (sendRateLimitRemaining).
    expect(results.every((x) => x.headers.get('x-ratelimit-remaining') === null)).toBe(true);
    // Per token: another token still gets through.
    expect((await sim.team.get('/organizations/acme')).status).toBe(200);
    expect(sim.s.log.entries().filter((e) => e.fault === 'rate-limit')).toHaveLength(10);
  });

  it('the limit is the real 30 per second by default', async () => {
    sim = await startSim({ rateLimit: undefined });
    const statuses = await Promise.all(Array.from({ length: 35 }, () => sim!.user.get('/ping').then((r) => r.status)));
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(1);
  });
});

describe('TFE sandbox: faults (common Faults, seeded)', () => {
  let sim: Sim | undefined;
  afterEach(async () => sim?.s.stop());

  async function pattern(seed: number): Promise<number[]> {
    const s = await startSim({ faults: { rate500: 0.3, rate503: 0.2, seed } });
    try {
      const out: number[] = [];
      for (let i = 0; i < 30; i++) out.push((await s.user.get('/organizations/acme')).status);
      return out;
    } finally {
      await s.s.stop();
    }
  }

  it('the same seed gives the same faults', async () => {
    const a = await pattern(42);
    expect(a).toEqual(await pattern(42));
    expect(a).toContain(500);
    expect(a).toContain(503);
    expect(a).toContain(200);
  });

  it('fail-next-N-writes fails writes only, with JSON:API 500s, and logs them', async () => {
    sim = await startSim({ faults: { failNextWrites: 2 } });
    const body = { data: { type: 'workspaces', attributes: { name: 'w' } } };
    expect((await sim.user.get('/organizations/acme')).status).toBe(200);
    const a = await sim.user.post('/organizations/acme/workspaces', body);
    expect(a.status).toBe(500);
    expect(a.body.errors[0].status).toBe('500');
    expect((await sim.user.post('/organizations/acme/workspaces', body)).status).toBe(500);
    expect((await sim.user.get('/organizations/acme/workspaces/w')).status).toBe(404);
    expect((await sim.user.post('/organizations/acme/workspaces', body)).status).toBe(201);
    expect(sim.s.log.writes('tfe').map((e) => e.fault ?? null)).toEqual(['fail-write', 'fail-write', null]);
  });

  it('injected 429s carry the rate-limit body and X-RateLimit-Reset; resets drop the connection; latency applies', async () => {
    // Latency and slow bodies wait on a manual clock: the request is run to its end on it and timed there.
    const clock = new ManualClock();
    sim = await startSim({ faults: { rate429: 1 }, clock });
    const r = await sim.user.get('/organizations/acme');
    expect(r.status).toBe(429);
    expect(r.body.errors[0].status).toBe(429);
    expect(r.headers.get('x-ratelimit-reset')).toBeTruthy();
    sim.s.faults.set({ rate429: 0, rateReset: 1 });
    await expect(sim.user.get('/organizations/acme')).rejects.toThrow();
    sim.s.faults.set({ rateReset: 0, latencyMs: 60 });
    const t = clock.now();
    await clock.run(sim.user.get('/organizations/acme'));
    expect(clock.now() - t).toBe(60);
    sim.s.faults.set({ latencyMs: 0, slowBodyMs: 5 });
    const slow = await clock.run(sim.user.get('/organizations/acme/registry-modules?page[size]=10'));
    expect(slow.status).toBe(200);
    expect(slow.body.data).toHaveLength(2);
  });
});

describe('TFE sandbox: control endpoints under /__sandbox (not logged, no faults)', () => {
  let sim: Sim | undefined;
  afterEach(async () => sim?.s.stop());

  it('faults GET/PUT, log GET/DELETE, step delay, run outcomes, managed resources, module versions', async () => {
    sim = await startSim({ faults: { rate500: 1 } });
    const u = sim.s.url;
    const put = (p: string, b: unknown, method = 'PUT') => fetch(`${u}${p}`, { method, body: JSON.stringify(b) });
    expect(((await (await fetch(`${u}/__sandbox/faults`)).json()) as { rate500: number }).rate500).toBe(1);
    expect((await put('/__sandbox/faults', { rate500: 0 })).status).toBe(200);
    expect((await put('/__sandbox/faults', { nope: 1 })).status).toBe(400);
    expect((await sim.user.get('/organizations/acme')).status).toBe(200);
    const log = (await (await fetch(`${u}/__sandbox/log?service=tfe`)).json()) as unknown[];
    expect(log).toHaveLength(1);
    expect((await fetch(`${u}/__sandbox/log`, { method: 'DELETE' })).status).toBe(200);
    expect(sim.s.log.size).toBe(0);
    expect((await put('/__sandbox/step-delay', { ms: 1 })).status).toBe(200);
    expect((await put('/__sandbox/run-outcomes', { workspace: 'x', outcome: 'errored' }, 'POST')).status).toBe(200);
    expect((await put('/__sandbox/run-outcomes', { workspace: 'x', outcome: 'weird' }, 'POST')).status).toBe(400);
    expect((await put('/__sandbox/managed-resources', { workspace: 'nope', count: 1 })).status).toBe(400);
    expect((await put('/__sandbox/module-versions', { name: 'vpc', provider: 'aws', version: '2.0.0' }, 'POST')).status).toBe(200);
    await new Promise((r) => setTimeout(r, 20));
    const v = await sim.user.get('/organizations/acme/registry-modules/private/acme/vpc/aws/version?module_version=2.0.0');
    expect(v.status).toBe(200);
    expect((await fetch(`${u}/__sandbox/nope`)).status).toBe(404);
    expect(sim.s.log.entries().every((e) => !e.path.startsWith('/__sandbox'))).toBe(true);
  });

  it('stops cleanly with runs in flight', async () => {
    sim = await startSim({ stepDelayMs: 1000 });
    const ncm = (
      await sim.user.post('/organizations/acme/no-code-modules', {
        data: { type: 'no-code-modules', attributes: { enabled: true }, relationships: { 'registry-module': { data: { id: (await sim.user.get('/organizations/acme/registry-modules/private/acme/vpc/aws')).body.data.id, type: 'registry-module' } } } },
      })
    ).body.data.id;
    expect((await sim.user.post(`/no-code-modules/${ncm}/workspaces`, { data: { type: 'workspaces', attributes: { name: 'inflight' } } })).status).toBe(200);
    await sim.s.stop();
    sim = undefined;
  });
});
