import { afterAll, beforeAll, expect, it } from 'vitest';
import { sleep, startSim, type Sim } from './helpers.js';

interface Var {
  Lock?: { ID: string };
  ModifyIndex: number;
  Items?: Record<string, string>;
}

let sim: Sim;
beforeAll(async () => {
  sim = await startSim();
});
afterAll(async () => {
  await sim.s.stop();
});

// The shortest TTL Nomad allows is 10s, so these take ~11.5s; they run concurrently, in their own file.
it.concurrent('keeps an unrenewed lock for LockDelay after the TTL, then clears it (reference §9)', { timeout: 20_000 }, async () => {
  const r = await sim.m.put('/v1/var/exp/lock?lock-acquire', { Items: { holder: 'a' }, Lock: { TTL: '10s', LockDelay: '1s' } });
  const v = r.json<Var>();
  const id = v.Lock?.ID ?? '';
  await sleep(10_250);
  // TTL over, delay running: the lock still stands, but can no longer be renewed.
  expect((await sim.m.put('/v1/var/exp/lock?lock-renew', { Lock: { ID: id } })).status).toBe(409);
  expect((await sim.c.put('/v1/var/exp/lock?lock-acquire', {})).status).toBe(409);
  await sleep(1_000);
  const g = (await sim.m.get('/v1/var/exp/lock')).json<Var>();
  expect(g.Lock).toBeUndefined();
  expect(g.ModifyIndex).toBeGreaterThan(v.ModifyIndex);
  expect(g.Items).toEqual({ holder: 'a' });
  expect((await sim.c.put('/v1/var/exp/lock?lock-acquire', {})).status).toBe(200);
});

it.concurrent('keeps a renewed lock past its first TTL', { timeout: 20_000 }, async () => {
  const v = (await sim.m.put('/v1/var/exp/renewed?lock-acquire', { Lock: { TTL: '10s', LockDelay: '100ms' } })).json<Var>();
  const id = v.Lock?.ID ?? '';
  await sleep(6_000);
  expect((await sim.m.put('/v1/var/exp/renewed?lock-renew', { Lock: { ID: id } })).status).toBe(200);
  await sleep(5_000);
  expect((await sim.m.get('/v1/var/exp/renewed')).json<Var>().Lock?.ID).toBe(id);
  expect((await sim.m.put('/v1/var/exp/renewed?lock-release', { Lock: { ID: id } })).status).toBe(200);
});
