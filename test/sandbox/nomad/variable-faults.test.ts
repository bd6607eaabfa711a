import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type Sim } from './helpers.js';

/* The Variables fault switches aimed at one kind of request (SPEC.md "Faults and log", variable-faults.ts). */

let sim: Sim;
beforeAll(async () => {
  sim = await startSim();
});
afterAll(async () => {
  await sim.s.stop();
});

describe('Variables fault switches', () => {
  it('failLockRenewals: every renewal answers 500 before the model; acquire and release still work', async () => {
    const a = await sim.m.put('/v1/var/vf/lock?lock-acquire', { Lock: { TTL: '10s' } });
    const id = a.json<{ Lock: { ID: string } }>().Lock.ID;
    sim.s.failLockRenewals(true);
    const r = await sim.m.put('/v1/var/vf/lock?lock-renew', { Lock: { ID: id } });
    expect([r.status, r.text]).toEqual([500, 'No cluster leader']);
    expect(sim.s.log.entries().at(-1)?.fault).toBe('fail-renew');
    sim.s.failLockRenewals(false);
    expect((await sim.m.put('/v1/var/vf/lock?lock-renew', { Lock: { ID: id } })).status).toBe(200);
    expect((await sim.m.put('/v1/var/vf/lock?lock-release', { Lock: { ID: id } })).status).toBe(200);
  });

  it('loseReplyOf: the matching request is applied, then the connection is reset; the next one is answered', async () => {
    sim.s.loseReplyOf({ op: 'cas-write', path: 'vf/head' });
    await expect(sim.m.put('/v1/var/vf/other?cas=0', { Items: { a: '1' } })).resolves.toMatchObject({ status: 200 });
    await expect(sim.m.put('/v1/var/vf/head?cas=0', { Items: { a: '1' } })).rejects.toThrow();
    expect(sim.s.log.entries().at(-1)?.fault).toBe('lost-reply');
    // It was applied: a repeat of the create-only write now conflicts with it.
    const again = await sim.m.put('/v1/var/vf/head?cas=0', { Items: { a: '1' } });
    expect(again.status).toBe(409);
    expect((await sim.m.get('/v1/var/vf/head')).json<{ Items: Record<string, string> }>().Items).toEqual({ a: '1' });
  });
});
