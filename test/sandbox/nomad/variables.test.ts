import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEXT, client, startSim, type Sim } from './helpers.js';

interface Var {
  Namespace: string;
  Path: string;
  Lock?: { ID: string; TTL: string; LockDelay: string };
  CreateIndex: number;
  CreateTime: number;
  ModifyIndex: number;
  ModifyTime: number;
  Items?: Record<string, string>;
}

let sim: Sim;
beforeAll(async () => {
  sim = await startSim();
});
afterAll(async () => {
  await sim.s.stop();
});

const put = (p: string, body: Record<string, unknown>, q = '') => sim.m.put(`/v1/var/${p}${q}`, body);

describe('variables: shape, read, write (docs/reference/nomad-api.md §9)', () => {
  it('writes and reads a variable with Unix-ns times, in the real field order', async () => {
    const before = BigInt(Date.now()) * 1_000_000n;
    const w = await put('app/config', { Items: { b: '2', a: '1' } });
    expect(w.status).toBe(200);
    const v = w.json<Var>();
    expect(Object.keys(v)).toEqual(['Namespace', 'Path', 'CreateIndex', 'CreateTime', 'ModifyIndex', 'ModifyTime', 'Items']);
    expect([v.Namespace, v.Path, v.Items]).toEqual(['default', 'app/config', { a: '1', b: '2' }]);
    // Times are exact integers in the body, larger than 2^53: check the raw text.
    const created = BigInt(/"CreateTime":(\d+)/.exec(w.text)?.[1] ?? '0');
    expect(created).toBeGreaterThanOrEqual(before);
    expect(w.headers.get('x-nomad-index')).toBe(String(v.ModifyIndex));
    const g = await sim.m.get('/v1/var/app/config');
    expect(g.json<Var>().Items).toEqual({ a: '1', b: '2' });
    expect(g.headers.get('x-nomad-index')).toBe(String(v.ModifyIndex));
    expect(g.headers.get('x-nomad-knownleader')).toBe('true');
  });

  it('keeps CreateIndex and moves ModifyIndex on update', async () => {
    const a = (await put('upd', { Items: { x: '1' } })).json<Var>();
    const b = (await put('upd', { Items: { x: '2' } })).json<Var>();
    expect(b.CreateIndex).toBe(a.CreateIndex);
    expect(b.ModifyIndex).toBeGreaterThan(a.ModifyIndex);
  });

  it('takes the path from the URL, and a body Namespace over ?namespace', async () => {
    const w = await sim.m.put('/v1/var/pathy?namespace=ns-q', { Path: 'ignored', Namespace: 'ns-body', Items: { a: 'b' } });
    expect(w.json<Var>().Path).toBe('pathy');
    expect(w.json<Var>().Namespace).toBe('ns-body');
    expect((await sim.m.get('/v1/var/pathy?namespace=ns-body')).status).toBe(200);
    expect((await sim.m.get('/v1/var/pathy?namespace=ns-q')).status).toBe(404);
    const q = await sim.m.put('/v1/var/pathy2?namespace=ns-q', { Items: { a: 'b' } });
    expect(q.json<Var>().Namespace).toBe('ns-q');
  });

  it('answers a missing variable with 404 variable not found', async () => {
    const r = await sim.m.get('/v1/var/does/not/exist');
    expect([r.status, r.text]).toEqual([404, 'variable not found']);
    expect(r.headers.get('content-type')).toBe(TEXT);
    expect(Number(r.headers.get('x-nomad-index'))).toBeGreaterThanOrEqual(1);
  });

  it('refuses empty Items, paths with a dot, reserved nomad/ paths, a wildcard namespace and more than 64 KiB', async () => {
    expect((await put('empty', { Items: {} })).text).toBe('variable missing required Items object');
    expect((await put('empty', {})).status).toBe(400);
    const dot = await put('state.json', { Items: { a: 'b' } });
    expect([dot.status, dot.text]).toEqual([400, 'invalid path "state.json"']);
    expect((await put('nomad', { Items: { a: 'b' } })).status).toBe(400);
    expect((await put('nomad/other', { Items: { a: 'b' } })).status).toBe(400);
    expect((await put('nomad/jobs/web', { Items: { a: 'b' } })).status).toBe(200);
    expect((await put('wild', { Namespace: '*', Items: { a: 'b' } })).status).toBe(400);
    const exact = 'x'.repeat(65536 - 1);
    expect((await put('big', { Items: { k: exact } })).status).toBe(200);
    const over = await put('big', { Items: { k: `${exact}x` } });
    expect([over.status, over.text]).toEqual([400, 'variables are limited to 64KiB in total size']);
  });

  it('refuses a Lock definition in a plain write', async () => {
    const r = await put('lockdef', { Items: { a: 'b' }, Lock: { TTL: '15s' } });
    expect([r.status, r.text]).toEqual([400, 'variable should not contain lock definition']);
  });

  it('answers a wrong method with 400 (not 405) and an empty path with 400', async () => {
    const r = await sim.m.req('PATCH', '/v1/var/x');
    expect([r.status, r.text]).toEqual([400, 'Invalid method']);
    const e = await sim.m.get('/v1/var/');
    expect([e.status, e.text]).toEqual([400, 'missing variable path']);
    expect((await sim.m.post('/v1/vars')).status).toBe(405);
  });

  it('answers bad JSON with 400', async () => {
    const r = await sim.m.put('/v1/var/bad', '{"Items": {"a": 1}}');
    expect(r.status).toBe(400);
    expect(r.text).toBe('json: cannot unmarshal number into Go struct field VariableDecrypted.Items of type string');
  });
});

describe('variables: check-and-set (docs/reference/nomad-api.md §9)', () => {
  it('cas=0 creates only; a stale index is a 409 with the current variable; the right index writes', async () => {
    const c = await put('cas/one', { Items: { v: '1' } }, '?cas=0');
    expect(c.status).toBe(200);
    const v1 = c.json<Var>();
    const again = await put('cas/one', { Items: { v: 'x' } }, '?cas=0');
    expect(again.status).toBe(409);
    expect(again.json<Var>()).toMatchObject({ Path: 'cas/one', ModifyIndex: v1.ModifyIndex, Items: { v: '1' } });
    expect(again.headers.get('x-nomad-index')).toBe(String(v1.ModifyIndex));
    const stale = await put('cas/one', { Items: { v: 'x' } }, `?cas=${v1.ModifyIndex - 1}`);
    expect(stale.status).toBe(409);
    const ok = await put('cas/one', { Items: { v: '2' } }, `?cas=${v1.ModifyIndex}`);
    expect(ok.status).toBe(200);
    expect(ok.json<Var>().ModifyIndex).toBeGreaterThan(v1.ModifyIndex);
    // The old index no longer matches: a second writer from the same read loses.
    expect((await put('cas/one', { Items: { v: '3' } }, `?cas=${v1.ModifyIndex}`)).status).toBe(409);
    expect((await sim.m.get('/v1/var/cas/one')).json<Var>().Items).toEqual({ v: '2' });
  });

  it('cas=N on a missing variable is a zero-valued 409', async () => {
    const r = await put('cas/missing', { Items: { v: '1' } }, '?cas=7');
    expect(r.status).toBe(409);
    expect(r.json<Var>()).toEqual({ Namespace: 'default', Path: 'cas/missing', CreateIndex: 0, CreateTime: 0, ModifyIndex: 0, ModifyTime: 0 });
    expect(r.headers.get('x-nomad-index')).toBe('0');
  });

  it('refuses a cas that is not a number', async () => {
    const r = await put('cas/x', { Items: { v: '1' } }, '?cas=abc');
    expect([r.status, r.text]).toEqual([400, 'can not parse cas: strconv.ParseUint: parsing "abc": invalid syntax']);
  });

  it('deletes with 204 and no body, with or without cas, and a missing variable too', async () => {
    const v = (await put('del/one', { Items: { a: 'b' } })).json<Var>();
    const bad = await sim.m.del(`/v1/var/del/one?cas=${v.ModifyIndex + 100}`);
    expect(bad.status).toBe(409);
    expect(bad.json<Var>().Items).toEqual({ a: 'b' });
    const d = await sim.m.del(`/v1/var/del/one?cas=${v.ModifyIndex}`);
    expect([d.status, d.text]).toEqual([204, '']);
    expect(Number(d.headers.get('x-nomad-index'))).toBeGreaterThan(v.ModifyIndex);
    expect((await sim.m.get('/v1/var/del/one')).status).toBe(404);
    expect((await sim.m.del('/v1/var/del/one')).status).toBe(204);
    expect((await sim.m.del('/v1/var/del/one?cas=0')).status).toBe(204);
    expect((await sim.m.del('/v1/var/del/one?cas=5')).status).toBe(409);
  });
});

describe('variables: list (docs/reference/nomad-api.md §9)', () => {
  it('lists metadata under a prefix, pages with per_page and next_token', async () => {
    const fresh = await startSim();
    try {
      expect((await fresh.m.get('/v1/vars')).text).toBe('[]');
      for (const p of ['s/chunk-3', 's/chunk-1', 's/chunk-2', 's/head', 'other/x']) {
        await fresh.m.put(`/v1/var/${p}`, { Items: { a: p } });
      }
      const all = await fresh.m.get('/v1/vars?prefix=s/chunk-');
      const list = all.json<Var[]>();
      expect(list.map((v) => v.Path)).toEqual(['s/chunk-1', 's/chunk-2', 's/chunk-3']);
      expect(list[0]?.Items).toBeUndefined();
      expect(all.headers.get('x-nomad-nexttoken')).toBeNull();
      const seen: string[] = [];
      let next = '';
      for (let page = 0; page < 10; page++) {
        const r = await fresh.m.get(`/v1/vars?prefix=s/&per_page=2${next ? `&next_token=${encodeURIComponent(next)}` : ''}`);
        seen.push(...r.json<Var[]>().map((v) => v.Path));
        next = r.headers.get('x-nomad-nexttoken') ?? '';
        if (!next) break;
      }
      expect(seen).toEqual(['s/chunk-1', 's/chunk-2', 's/chunk-3', 's/head']);
    } finally {
      await fresh.s.stop();
    }
  });

  it('filters by namespace, * lists all', async () => {
    await sim.m.put('/v1/var/nslist?namespace=team-a', { Items: { a: 'b' } });
    const a = (await sim.m.get('/v1/vars?namespace=team-a')).json<Var[]>();
    expect(a.map((v) => v.Path)).toEqual(['nslist']);
    const star = (await sim.m.get('/v1/vars?namespace=*&prefix=nslist')).json<Var[]>();
    expect(star.map((v) => `${v.Namespace}/${v.Path}`)).toEqual(['team-a/nslist']);
  });

  it('wakes a blocking list on a write under the prefix', async () => {
    const r0 = await sim.m.get('/v1/vars');
    const idx = Number(r0.headers.get('x-nomad-index'));
    const pending = sim.m.get(`/v1/vars?prefix=blk/&index=${idx}&wait=5s`);
    await put('blk/one', { Items: { a: 'b' } });
    const r = await pending;
    expect(r.json<Var[]>().map((v) => v.Path)).toEqual(['blk/one']);
  });
});

describe('variables: tokens', () => {
  it('lets the client token read, write and delete; refuses anonymous and unknown tokens', async () => {
    expect((await sim.c.put('/v1/var/ci/x', { Items: { a: 'b' } })).status).toBe(200);
    expect((await sim.c.get('/v1/var/ci/x')).status).toBe(200);
    for (const who of [sim.anon, client(sim.s.url, 'bogus')]) {
      for (const r of [await who.get('/v1/var/ci/x'), await who.put('/v1/var/ci/x', { Items: { a: 'c' } }), await who.del('/v1/var/ci/x')]) {
        expect([r.status, r.text]).toEqual([403, 'Permission denied']);
      }
    }
    // Listing filters what the caller may not see instead of refusing; a bad token is refused.
    expect((await sim.anon.get('/v1/vars')).text).toBe('[]');
    expect((await client(sim.s.url, 'bogus').get('/v1/vars')).status).toBe(403);
    expect((await sim.c.del('/v1/var/ci/x')).status).toBe(204);
  });
});
