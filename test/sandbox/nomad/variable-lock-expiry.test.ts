import { afterEach, expect, it } from 'vitest';
import { ManualClock } from '../../../src/async/manual-clock.js';
import { startSim, type Sim } from './helpers.js';

interface Var {
  Lock?: { ID: string };
  ModifyIndex: number;
  Items?: Record<string, string>;
}

// The shortest TTL Nomad allows is 10s and its timer runs 2 x TTL (nomad/locks.go): the simulator runs on a
// manual clock that each test moves forward, so ~21.5 s of lease take no real time.
let sim: Sim;
let clock: ManualClock;
async function start(): Promise<void> {
  clock = new ManualClock();
  sim = await startSim({ clock });
}
afterEach(async () => {
  await sim.s.stop();
});

it('keeps an unrenewed lock for 2 x TTL, then LockDelay, then clears it (docs/reference/nomad-api.md §9)', async () => {
  await start();
  const r = await sim.m.put('/v1/var/exp/lock?lock-acquire', { Items: { holder: 'a' }, Lock: { TTL: '10s', LockDelay: '1s' } });
  const v = r.json<Var>();
  const id = v.Lock?.ID ?? '';
  await clock.advance(10_500);
  // Past the TTL but inside Nomad's grace period: still held.
  expect((await sim.c.put('/v1/var/exp/lock?lock-acquire', {})).status).toBe(409);
  await clock.advance(10_000);
  // 2 x TTL over, delay running: the lock still stands, but can no longer be renewed.
  expect((await sim.m.put('/v1/var/exp/lock?lock-renew', { Lock: { ID: id } })).status).toBe(409);
  expect((await sim.c.put('/v1/var/exp/lock?lock-acquire', {})).status).toBe(409);
  await clock.advance(1_000);
  const g = (await sim.m.get('/v1/var/exp/lock')).json<Var>();
  expect(g.Lock).toBeUndefined();
  expect(g.ModifyIndex).toBeGreaterThan(v.ModifyIndex);
  expect(g.Items).toEqual({ holder: 'a' });
  expect((await sim.c.put('/v1/var/exp/lock?lock-acquire', {})).status).toBe(200);
});

it('a holder\'s plain write rewrites the stored lock to the 15s defaults (docs/reference/nomad-api.md §9, VariableLock.Canonicalize)', async () => {
  await start();
  const v = (await sim.m.put('/v1/var/exp/rewritten?lock-acquire', { Items: { a: '1' }, Lock: { TTL: '60s', LockDelay: '5s' } })).json<Var & { Lock: { TTL: string } }>();
  expect(v.Lock.TTL).toBe('1m0s');
  const w = await sim.m.put('/v1/var/exp/rewritten', { Items: { a: '2' }, Lock: { ID: v.Lock.ID } });
  expect(w.status).toBe(200);
  const g = (await sim.m.get('/v1/var/exp/rewritten')).json<{ Lock: { ID: string; TTL: string; LockDelay: string } }>();
  expect(g.Lock).toEqual({ ID: v.Lock.ID, TTL: '15s', LockDelay: '15s' });
});

it('keeps a renewed lock past its first TTL', async () => {
  await start();
  const v = (await sim.m.put('/v1/var/exp/renewed?lock-acquire', { Lock: { TTL: '10s', LockDelay: '100ms' } })).json<Var>();
  const id = v.Lock?.ID ?? '';
  await clock.advance(6_000);
  expect((await sim.m.put('/v1/var/exp/renewed?lock-renew', { Lock: { ID: id } })).status).toBe(200);
  await clock.advance(5_000);
  expect((await sim.m.get('/v1/var/exp/renewed')).json<Var>().Lock?.ID).toBe(id);
  // 22 s in: past the first timer (2 x TTL from acquire), inside the renewed one (2 x TTL from the renewal at 6 s).
  await clock.advance(11_000);
  expect((await sim.m.get('/v1/var/exp/renewed')).json<Var>().Lock?.ID).toBe(id);
  // 26.2 s: the renewed timer and the 100 ms delay have run out.
  await clock.advance(4_200);
  expect((await sim.m.get('/v1/var/exp/renewed')).json<Var>().Lock).toBeUndefined();
});
