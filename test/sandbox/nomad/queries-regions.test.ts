import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/async/manual-clock.js';
import { oidc, startSim, type AuthMethodJson, type Sim } from './helpers.js';

/*
 * The simulators run on a manual clock: waits, jitter and replication lag pass when the test moves it, so
 * the tests check them to the millisecond on the simulator's clock, never on the machine's.
 */

/** A request that says when it has been answered. */
function tracked<T>(p: Promise<T>): { promise: Promise<T>; done: () => boolean } {
  let settled = false;
  const promise = p.finally(() => {
    settled = true;
  });
  return { promise, done: () => settled };
}

/** Lets the blocking query reach the simulator and park on a timer. */
const parked = (clock: ManualClock, before: number) => clock.settle(() => clock.pending > before, 5000);

describe('blocking queries and query parameters (docs/reference/nomad-api.md §7)', () => {
  let sim: Sim;
  const clock = new ManualClock();
  beforeAll(async () => {
    sim = await startSim({ clock });
  });
  afterAll(async () => {
    await sim.s.stop();
  });

  it('holds a read until a write moves the index past ?index, then answers at once', async () => {
    const first = await sim.anon.get('/v1/acl/auth-methods');
    const index = Number(first.headers.get('x-nomad-index'));
    const started = clock.now();
    const before = clock.pending;
    const pending = tracked(sim.anon.get(`/v1/acl/auth-methods?index=${index}&wait=10s`));
    await parked(clock, before);
    await clock.advance(150);
    expect(pending.done()).toBe(false);
    await sim.m.post('/v1/acl/auth-method', oidc('wakes'));
    const r = await pending.promise;
    // Answered by the write, with the clock still at 150 ms of the 10 s wait.
    expect(clock.now() - started).toBe(150);
    expect(clock.pending).toBe(before);
    expect(Number(r.headers.get('x-nomad-index'))).toBeGreaterThan(index);
    expect(r.json<Array<{ Name: string }>>().map((x) => x.Name)).toContain('wakes');
  });

  it('wakes a blocked GET of one method on its update, not on others', async () => {
    const m = (await sim.m.post('/v1/acl/auth-method', oidc('watched'))).json<AuthMethodJson>();
    const before = clock.pending;
    const pending = sim.m.get(`/v1/acl/auth-method/watched?index=${m.ModifyIndex}&wait=5s`);
    await parked(clock, before);
    await sim.m.post('/v1/acl/auth-method', oidc('bystander'));
    await clock.advance(100);
    await sim.m.post('/v1/acl/auth-method/watched', oidc('watched', { TokenLocality: 'local' }));
    const r = await pending;
    expect(r.json<AuthMethodJson>().TokenLocality).toBe('local');
    expect(Number(r.headers.get('x-nomad-index'))).toBeGreaterThan(m.ModifyIndex);
  });

  it('answers with unchanged data when the wait ends', async () => {
    const first = await sim.anon.get('/v1/acl/auth-methods');
    const index = Number(first.headers.get('x-nomad-index'));
    const before = clock.pending;
    const pending = tracked(sim.anon.get(`/v1/acl/auth-methods?index=${index}&wait=200ms`));
    await parked(clock, before);
    await clock.advance(199);
    await clock.settle(pending.done);
    expect(pending.done()).toBe(false);
    // The wait plus at most wait/16 of jitter (docs/reference/nomad-api.md §7).
    await clock.advance(1 + 200 / 16);
    const r = await pending.promise;
    expect(r.status).toBe(200);
    expect(r.headers.get('x-nomad-index')).toBe(String(index));
  });

  it('does not block without ?index', async () => {
    const before = clock.pending;
    // Answered while the simulator's clock stands still: a blocked read would never come back here.
    const r = await sim.anon.get('/v1/acl/auth-methods?wait=5s');
    expect(r.status).toBe(200);
    expect(clock.pending).toBe(before);
  });

  it('rejects bad wait, index and stale values with the real texts, in that order', async () => {
    const w = await sim.anon.get('/v1/acl/auth-methods?wait=soon&index=x');
    expect([w.status, w.text]).toEqual([400, 'Invalid wait time']);
    const i = await sim.anon.get('/v1/acl/auth-methods?index=-1');
    expect([i.status, i.text]).toEqual([400, 'Invalid index']);
    const s = await sim.anon.get('/v1/acl/auth-methods?stale=maybe');
    expect([s.status, s.text]).toEqual([400, 'Expect `true` or `false` for `stale` query string parameter']);
    for (const ok of ['?stale', '?stale=true', '?stale=false', '?stale=1']) {
      expect((await sim.anon.get(`/v1/acl/auth-methods${ok}`)).status).toBe(200);
    }
  });

  it('checks query parameters before the token', async () => {
    const r = await sim.anon.get('/v1/acl/auth-method/x?index=nope');
    expect(r.status).toBe(400);
  });

  it('answers an unknown region with 500 No path to region', async () => {
    const r = await sim.anon.get('/v1/acl/auth-methods?region=mars');
    expect([r.status, r.text]).toEqual([500, 'No path to region']);
    const v = await sim.m.get('/v1/var/x?region=mars');
    expect([v.status, v.text]).toEqual([500, 'No path to region']);
  });
});

describe('replication to a lagging replica region (docs/reference/nomad-api.md §3.1, §7)', () => {
  let sim: Sim;
  const clock = new ManualClock();
  beforeAll(async () => {
    sim = await startSim({ replicationLagMs: 300, clock });
  });
  afterAll(async () => {
    await sim.s.stop();
  });

  it('names its regions, authoritative first', () => {
    expect(sim.s.regions).toEqual(['global', 'europe']);
  });

  it('shows a write in the replica only after the lag, with region-local indexes and the same Hash', async () => {
    const w = (await sim.m.post('/v1/acl/auth-method', oidc('lagged'))).json<AuthMethodJson>();
    const early = await sim.m.get('/v1/acl/auth-method/lagged?region=europe');
    expect(early.status).toBe(404);
    expect((await sim.anon.get('/v1/acl/auth-methods?region=europe')).json<unknown[]>()).toEqual([]);
    await clock.advance(450);
    const late = await sim.m.get('/v1/acl/auth-method/lagged?region=europe');
    expect(late.status).toBe(200);
    const copy = late.json<AuthMethodJson>();
    expect(copy.Hash).toBe(w.Hash);
    expect(copy.CreateTime).toBe(w.CreateTime);
    expect(copy.ModifyIndex).not.toBe(w.ModifyIndex);
    expect(late.headers.get('x-nomad-index')).toBe(String(copy.ModifyIndex));
    // Reads without ?region are the authoritative region's.
    expect((await sim.m.get('/v1/acl/auth-method/lagged')).json<AuthMethodJson>().ModifyIndex).toBe(w.ModifyIndex);
  });

  it('applies writes sent with ?region=europe to the authoritative region', async () => {
    const w = await sim.m.post('/v1/acl/auth-method?region=europe', oidc('via-europe'));
    expect(w.status).toBe(200);
    expect((await sim.m.get('/v1/acl/auth-method/via-europe')).status).toBe(200);
    expect((await sim.m.get('/v1/acl/auth-method/via-europe?region=europe')).status).toBe(404);
    // Even an unknown region does not stop an ACL write: the RPC overwrites it.
    expect((await sim.m.post('/v1/acl/auth-method?region=mars', oidc('via-mars'))).status).toBe(200);
  });

  it('replicates deletes after the lag too', async () => {
    await sim.m.post('/v1/acl/auth-method', oidc('short-lived'));
    await clock.advance(450);
    expect((await sim.m.get('/v1/acl/auth-method/short-lived?region=europe')).status).toBe(200);
    await sim.m.del('/v1/acl/auth-method/short-lived');
    expect((await sim.m.get('/v1/acl/auth-method/short-lived?region=europe')).status).toBe(200);
    await clock.advance(450);
    expect((await sim.m.get('/v1/acl/auth-method/short-lived?region=europe')).status).toBe(404);
  });

  it('wakes a blocking read on the replica when replication lands', async () => {
    const r0 = await sim.anon.get('/v1/acl/auth-methods?region=europe');
    const idx = Number(r0.headers.get('x-nomad-index'));
    const before = clock.pending;
    const pending = tracked(sim.anon.get(`/v1/acl/auth-methods?region=europe&index=${idx}&wait=5s`));
    await parked(clock, before);
    await sim.m.post('/v1/acl/auth-method', oidc('blocked-replica'));
    // The 300 ms lag: not a millisecond before.
    await clock.advance(299);
    await clock.settle(pending.done);
    expect(pending.done()).toBe(false);
    await clock.advance(1);
    const r = await pending.promise;
    expect(r.json<Array<{ Name: string }>>().map((x) => x.Name)).toContain('blocked-replica');
  });

  it('converges at once when the lag is set to 0, and lags again when raised', async () => {
    sim.s.setReplicationLag(60_000);
    await sim.m.post('/v1/acl/auth-method', oidc('stuck'));
    await clock.advance(100);
    expect((await sim.m.get('/v1/acl/auth-method/stuck?region=europe')).status).toBe(404);
    sim.s.setReplicationLag(0);
    expect((await sim.m.get('/v1/acl/auth-method/stuck?region=europe')).status).toBe(200);
    await sim.m.post('/v1/acl/auth-method', oidc('instant'));
    expect((await sim.m.get('/v1/acl/auth-method/instant?region=europe')).status).toBe(200);
  });

  it('replicates binding rules as well', async () => {
    sim.s.setReplicationLag(0);
    await sim.m.post('/v1/acl/auth-method', oidc('rules-method'));
    const rule = (await sim.m.post('/v1/acl/binding-rule', { AuthMethod: 'rules-method', BindType: 'management' })).json<{ ID: string; Hash: string; ModifyIndex: number }>();
    const copy = await sim.m.get(`/v1/acl/binding-rule/${rule.ID}?region=europe`);
    expect(copy.status).toBe(200);
    expect(copy.json<{ Hash: string; ModifyIndex: number }>().Hash).toBe(rule.Hash);
    expect(copy.json<{ ModifyIndex: number }>().ModifyIndex).not.toBe(rule.ModifyIndex);
  });

  it('keeps Variables per region: nothing is replicated', async () => {
    expect((await sim.m.put('/v1/var/regional?region=europe', { Items: { a: 'b' } })).status).toBe(200);
    expect((await sim.m.get('/v1/var/regional?region=europe')).status).toBe(200);
    expect((await sim.m.get('/v1/var/regional')).status).toBe(404);
  });
});
