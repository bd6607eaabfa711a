import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type Sim } from './helpers.js';

interface Var {
  Namespace: string;
  Path: string;
  Lock?: { ID: string; TTL: string; LockDelay: string };
  CreateIndex: number;
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

const acquire = (p: string, body: Record<string, unknown> = {}, who = sim.m) => who.put(`/v1/var/${p}?lock-acquire`, body);
const renew = (p: string, id: string, who = sim.m) => who.put(`/v1/var/${p}?lock-renew`, { Lock: { ID: id } });
const release = (p: string, id: string, who = sim.m) => who.put(`/v1/var/${p}?lock-release`, { Lock: { ID: id } });

describe('variable locks (docs/reference/nomad-api.md §9 "Locks")', () => {
  it('acquires with defaults of 15s, creating the variable, and shows the Lock to its holder', async () => {
    const r = await acquire('lk/new', { Items: { owner: 'me' } });
    expect(r.status).toBe(200);
    const v = r.json<Var>();
    expect(v.Lock?.ID).toMatch(/^[0-9a-f-]{36}$/);
    expect([v.Lock?.TTL, v.Lock?.LockDelay]).toEqual(['15s', '15s']);
    expect(v.Items).toEqual({ owner: 'me' });
    expect(Object.keys(v)).toEqual(['Namespace', 'Path', 'Lock', 'CreateIndex', 'CreateTime', 'ModifyIndex', 'ModifyTime', 'Items']);
    expect(r.headers.get('x-nomad-index')).toBe(String(v.ModifyIndex));
    // GET shows Lock only to management tokens.
    expect((await sim.m.get('/v1/var/lk/new')).json<Var>().Lock?.ID).toBe(v.Lock?.ID);
    expect((await sim.c.get('/v1/var/lk/new')).json<Var>().Lock).toBeUndefined();
    expect((await sim.c.get('/v1/vars?prefix=lk/new')).json<Var[]>()[0]?.Lock).toBeUndefined();
    expect((await sim.m.get('/v1/vars?prefix=lk/new')).json<Var[]>()[0]?.Lock?.ID).toBe(v.Lock?.ID);
  });

  it('replaces the stored Items on acquire, even with none', async () => {
    await sim.m.put('/v1/var/lk/data', { Items: { state: 'precious' } });
    const r = await acquire('lk/data', { Lock: { TTL: '10s' } });
    expect(r.status).toBe(200);
    const g = await sim.m.get('/v1/var/lk/data');
    expect(g.json<Var>().Items).toBeUndefined();
    await release('lk/data', r.json<Var>().Lock?.ID ?? '');
  });

  it('refuses a second acquire with a zero-valued 409', async () => {
    const first = (await acquire('lk/busy')).json<Var>();
    const second = await acquire('lk/busy', {}, sim.c);
    expect(second.status).toBe(409);
    expect(second.json<Var>()).toEqual({ Namespace: 'default', Path: 'lk/busy', CreateIndex: 0, CreateTime: 0, ModifyIndex: 0, ModifyTime: 0 });
    await release('lk/busy', first.Lock?.ID ?? '');
    expect((await acquire('lk/busy', {}, sim.c)).status).toBe(200);
  });

  it('checks TTL and LockDelay', async () => {
    const short = await acquire('lk/ttl', { Lock: { TTL: '9s' } });
    expect([short.status, short.text]).toEqual([400, 'TTL must be between 10 seconds and 24 hours']);
    expect((await acquire('lk/ttl', { Lock: { TTL: '25h' } })).status).toBe(400);
    const neg = await acquire('lk/ttl', { Lock: { TTL: '10s', LockDelay: '-1s' } });
    expect([neg.status, neg.text]).toEqual([400, 'Lock delay and TTL must be positive']);
    const ns = await acquire('lk/ttl', { Lock: { TTL: 10e9, LockDelay: 1e9 } });
    expect(ns.json<Var>().Lock).toMatchObject({ TTL: '10s', LockDelay: '1s' });
    await release('lk/ttl', ns.json<Var>().Lock?.ID ?? '');
  });

  it('refuses two lock flags, and cas with a lock flag, before reading the body', async () => {
    const two = await sim.m.put('/v1/var/lk/x?lock-acquire&lock-release', '{broken');
    expect([two.status, two.text]).toEqual([400, 'multiple lock operations']);
    const cas = await sim.m.put('/v1/var/lk/x?lock-acquire&cas=1', '{broken');
    expect([cas.status, cas.text]).toEqual([400, "CAS can't be used with lock operations"]);
  });

  it('renews: metadata only, no X-Nomad-Index; errors for wrong ID, no lock, missing variable', async () => {
    const v = (await acquire('lk/renew', { Items: { a: 'b' } })).json<Var>();
    const id = v.Lock?.ID ?? '';
    const r = await renew('lk/renew', id, sim.c);
    expect(r.status).toBe(200);
    expect(r.headers.get('x-nomad-index')).toBeNull();
    expect(r.json<Var>().Items).toBeUndefined();
    expect(r.json<Var>().ModifyIndex).toBe(v.ModifyIndex);
    const wrong = await renew('lk/renew', 'not-the-id');
    expect([wrong.status, wrong.text]).toEqual([409, 'attempting to modify locked variable']);
    await sim.m.put('/v1/var/lk/unlocked', { Items: { a: 'b' } });
    const none = await renew('lk/unlocked', id);
    expect([none.status, none.text]).toEqual([409, "variable doesn't hold a lock"]);
    const missing = await renew('lk/ghost', id);
    expect([missing.status, missing.text]).toEqual([404, "variable doesn't exist"]);
    await release('lk/renew', id);
  });

  it('releases: Lock removed, ModifyIndex bumped, Items kept; wrong ID 409; no lock or no variable 500', async () => {
    const v = (await acquire('lk/rel', { Items: { keep: 'me' } })).json<Var>();
    const id = v.Lock?.ID ?? '';
    const wrong = await release('lk/rel', 'nope');
    expect(wrong.status).toBe(409);
    expect(wrong.json<Var>().ModifyIndex).toBe(0);
    const withItems = await sim.m.put('/v1/var/lk/rel?lock-release', { Items: { a: 'b' }, Lock: { ID: id } });
    expect([withItems.status, withItems.text]).toEqual([400, "lock release operation doesn't take variable items"]);
    const noId = await sim.m.put('/v1/var/lk/rel?lock-release', {});
    expect([noId.status, noId.text]).toEqual([400, 'missing lock information']);
    const ok = await release('lk/rel', id);
    expect(ok.status).toBe(200);
    const after = ok.json<Var>();
    expect(after.Lock).toBeUndefined();
    expect(after.ModifyIndex).toBeGreaterThan(v.ModifyIndex);
    expect(ok.headers.get('x-nomad-index')).toBe(String(after.ModifyIndex));
    expect((await sim.m.get('/v1/var/lk/rel')).json<Var>().Items).toEqual({ keep: 'me' });
    const again = await release('lk/rel', id);
    expect([again.status, again.text]).toEqual([500, "variable doesn't hold a lock"]);
    const ghost = await release('lk/ghost2', id);
    expect([ghost.status, ghost.text]).toEqual([500, "variable doesn't exist"]);
  });

  it('refuses writes to a locked variable without the lock ID, and takes them with it', async () => {
    const v = (await acquire('lk/guarded', { Items: { a: '1' } })).json<Var>();
    const id = v.Lock?.ID ?? '';
    const blind = await sim.m.put('/v1/var/lk/guarded', { Items: { a: '2' } });
    expect(blind.status).toBe(409);
    const wrong = await sim.m.put('/v1/var/lk/guarded', { Items: { a: '2' }, Lock: { ID: 'other' } });
    expect(wrong.status).toBe(409);
    const holder = await sim.c.put('/v1/var/lk/guarded', { Items: { a: '2' }, Lock: { ID: id } });
    expect(holder.status).toBe(200);
    // The holder proved it knows the lock, so it sees it even with a non-management token.
    expect(holder.json<Var>().Lock?.ID).toBe(id);
    expect((await sim.m.get('/v1/var/lk/guarded')).json<Var>().Lock?.ID).toBe(id);
    // DELETE sends no lock ID, so a locked variable can never be deleted.
    const del = await sim.m.del('/v1/var/lk/guarded');
    expect(del.status).toBe(409);
    await release('lk/guarded', id);
    expect((await sim.m.del('/v1/var/lk/guarded')).status).toBe(204);
  });
});
