import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/async/manual-clock.js';
import { startSim, type Sim } from './helpers.js';

describe('TFE sandbox: the per-token limit can be changed (control, like a TFE operator setting)', () => {
  let sim: Sim | undefined;
  afterEach(async () => sim?.s.stop());

  it('setRateLimit(5): X-RateLimit-Limit says 5 and the sixth request of a burst gets 429', async () => {
    sim = await startSim({ rateLimit: { perSecond: 30 } });
    sim.s.control.setRateLimit(5);
    const results = await Promise.all(Array.from({ length: 6 }, () => sim!.user.get('/organizations/acme')));
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 429]);
    expect(results[0]?.headers.get('x-ratelimit-limit')).toBe('5');
  });

  it('PUT /__sandbox/rate-limit sets it over HTTP; bad values and a simulator without a limit are refused', async () => {
    sim = await startSim({ rateLimit: { perSecond: 30 } });
    const put = (body: unknown) => fetch(`${sim!.s.url}/__sandbox/rate-limit`, { method: 'PUT', body: JSON.stringify(body) });
    expect((await put({ perSecond: 100 })).status).toBe(200);
    expect((await sim.user.get('/organizations/acme')).headers.get('x-ratelimit-limit')).toBe('100');
    expect((await put({ perSecond: 0 })).status).toBe(400);
    await sim.s.stop();
    sim = await startSim({ rateLimit: false });
    expect(() => sim!.s.control.setRateLimit(30)).toThrow(/off/);
  });
});

describe('TFE sandbox: the rate-limit windows pass on the simulator clock', () => {
  let sim: Sim | undefined;
  afterEach(async () => sim?.s.stop());

  it('a refused request is allowed once a ManualClock has moved past X-RateLimit-Reset, with no real waiting', async () => {
    const clock = new ManualClock();
    sim = await startSim({ rateLimit: { perSecond: 5 }, clock });
    const burst = await Promise.all(Array.from({ length: 6 }, () => sim!.user.get('/organizations/acme')));
    expect(burst.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 429]);
    expect(burst.find((r) => r.status === 429)?.headers.get('x-ratelimit-reset')).toBe('1.000');
    await clock.advance(999);
    expect((await sim.user.get('/organizations/acme')).status).toBe(429);
    await clock.advance(1);
    expect((await sim.user.get('/organizations/acme')).status).toBe(200);
  });

  it('the run lists’ minute passes on the clock too', async () => {
    const clock = new ManualClock();
    sim = await startSim({ clock });
    sim.s.control.setRunListRation(2);
    const list = () => sim!.user.get('/organizations/acme/runs');
    expect([(await list()).status, (await list()).status, (await list()).status]).toEqual([200, 200, 429]);
    await clock.advance(59_999);
    expect((await list()).status).toBe(429);
    await clock.advance(1);
    expect((await list()).status).toBe(200);
  });
});
