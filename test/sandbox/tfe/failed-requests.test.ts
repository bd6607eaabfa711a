import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/async/manual-clock.js';
import { client, createNoCodeWorkspace, enableModule, latestRunId, startSim, waitForStatus, type Sim } from './helpers.js';

/* The one-shot failure of a chosen request (control failRequest, POST /__sandbox/failed-requests) and the
 * `late-cost-estimate` run outcome: the switches the run-handling regression tests aim with. */
describe('TFE sandbox: chosen request failures', () => {
  let sim: Sim | undefined;
  afterEach(async () => sim?.s.stop());

  it('fails only the nth matching request, once, before the model acts', async () => {
    sim = await startSim();
    const ncm = await enableModule(sim.user, 'vpc');
    sim.s.control.failRequest({ method: 'PATCH', path: '^/api/v2/no-code-modules/[^/]+$', nth: 2, status: 503 });
    const patch = (pin: string) => sim!.user.patch(`/no-code-modules/${ncm}`, { data: { type: 'no-code-modules', attributes: { 'version-pin': pin } } });
    expect((await sim.user.get(`/no-code-modules/${ncm}`)).status).toBe(200);
    expect((await patch('1.4.0')).status).toBe(200);
    const failed = await patch('1.5.0');
    expect(failed.status).toBe(503);
    expect(failed.body).toEqual({ errors: [{ status: '503', title: 'service unavailable', detail: 'sandbox fault: injected 503' }] });
    const read = await sim.user.get(`/no-code-modules/${ncm}`);
    expect((read.body as { data: { attributes: Record<string, unknown> } }).data.attributes['version-pin']).toBe('1.4.0');
    expect((await patch('1.5.0')).status).toBe(200);
    expect(sim.s.log.entries().map((e) => e.fault ?? null)).toContain('status-503');
  });

  it('with acted, the model acts and the reply is lost as a 500; over HTTP too', async () => {
    // The 50 ms delay of the lost reply waits on a manual clock: the request is run to its end on it.
    const clock = new ManualClock();
    sim = await startSim({ clock });
    const ncm = await enableModule(sim.user, 'vpc');
    const control = client(sim.s.url);
    const set = await control.post('/__sandbox/failed-requests', { method: 'PATCH', path: '/no-code-modules/', acted: true, delayMs: 50 });
    expect(set.status).toBe(200);
    expect(((await control.get('/__sandbox/failed-requests')).body as unknown[]).length).toBe(1);
    const started = clock.now();
    const r = await clock.run(sim.user.patch(`/no-code-modules/${ncm}`, { data: { type: 'no-code-modules', attributes: { 'version-pin': '1.5.0' } } }));
    expect(r.status).toBe(500);
    expect(clock.now() - started).toBe(50);
    const read = await sim.user.get(`/no-code-modules/${ncm}`);
    expect((read.body as { data: { attributes: Record<string, unknown> } }).data.attributes['version-pin']).toBe('1.5.0');
    expect((await control.get('/__sandbox/failed-requests')).body).toEqual([]);
    expect((await control.post('/__sandbox/failed-requests', { method: 'GET', path: 'x', status: 404 })).status).toBe(400);
  });

  it('late-cost-estimate: planned is confirmable for one step, then cost estimation runs', async () => {
    sim = await startSim({ stepDelayMs: 100 });
    const ncm = await enableModule(sim.user, 'vpc');
    sim.s.control.setNextRunOutcome('ws-a', 'late-cost-estimate');
    const ws = await createNoCodeWorkspace(sim.user, ncm, 'ws-a');
    const run = await latestRunId(sim.user, ws);
    await waitForStatus(sim.user, run, 'planned');
    const planned = await sim.user.get(`/runs/${run}`);
    expect((planned.body as { data: { attributes: { actions: Record<string, boolean> } } }).data.attributes.actions['is-confirmable']).toBe(true);
    await waitForStatus(sim.user, run, 'cost_estimated');
    expect((await sim.user.post(`/runs/${run}/actions/apply`, { comment: 'go' })).status).toBe(202);
    await waitForStatus(sim.user, run, 'applied');
  });
});

describe('TFE sandbox: a chosen failure may say when to come back', () => {
  let sim: Sim | undefined;
  afterEach(async () => sim?.s.stop());

  it('retryAfterSeconds sends Retry-After with the 5xx, over HTTP too; none unless asked; fractions refused', async () => {
    sim = await startSim();
    const control = client(sim.s.url);
    sim.s.control.failRequest({ method: 'GET', path: '^/api/v2/organizations/acme$', status: 503, retryAfterSeconds: 0 });
    expect((await control.post('/__sandbox/failed-requests', { method: 'GET', path: '^/api/v2/organizations/acme$', nth: 2, retryAfterSeconds: 3 })).status).toBe(200);
    const first = await sim.user.get('/organizations/acme');
    expect([first.status, first.headers.get('retry-after')]).toEqual([503, '0']);
    const plain = await sim.user.get('/organizations/acme');
    expect([plain.status, plain.headers.get('retry-after')]).toEqual([200, null]);
    const second = await sim.user.get('/organizations/acme');
    expect([second.status, second.headers.get('retry-after')]).toEqual([500, '3']);
    sim.s.control.failRequest({ method: 'GET', path: '^/api/v2/organizations/acme$' });
    expect((await sim.user.get('/organizations/acme')).headers.get('retry-after')).toBeNull();
    expect(() => sim!.s.control.failRequest({ method: 'GET', path: 'x', retryAfterSeconds: 0.5 })).toThrow(/whole number of seconds/);
    expect((await control.post('/__sandbox/failed-requests', { method: 'GET', path: 'x', retryAfterSeconds: -1 })).status).toBe(400);
  });
});
