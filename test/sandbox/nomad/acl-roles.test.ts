import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEXT, client, startSim, type Sim } from './helpers.js';

interface Role {
  ID: string;
  Name: string;
  Description: string;
  Policies: Array<{ Name: string }>;
  Hash: string;
  CreateIndex: number;
  ModifyIndex: number;
}

let sim: Sim;
beforeAll(async () => {
  sim = await startSim();
  for (const name of ['operator', 'readonly', 'spare']) {
    await sim.m.put(`/v1/acl/policy/${name}`, { Name: name, Rules: 'node { policy = "read" }' });
  }
});
afterAll(async () => {
  await sim.s.stop();
});

const links = (...names: string[]) => names.map((Name) => ({ Name }));
const create = (body: Record<string, unknown>) => sim.m.post('/v1/acl/role', body);

describe('ACL roles (SPEC.md "ACL roles")', () => {
  it('creates with a server UUID and reads it by ID and by name', async () => {
    const r = await create({ Name: 'developer', Description: 'Application developers', Policies: links('operator', 'readonly') });
    expect(r.status).toBe(200);
    const role = r.json<Role>();
    expect(Object.keys(role)).toEqual(['ID', 'Name', 'Description', 'Policies', 'Hash', 'CreateIndex', 'ModifyIndex']);
    expect(role.ID).toMatch(/^[0-9a-f-]{36}$/);
    expect(role.Policies).toEqual(links('operator', 'readonly'));
    expect(Buffer.from(role.Hash, 'base64')).toHaveLength(32);
    expect(r.headers.get('x-nomad-index')).toBe(String(role.ModifyIndex));
    const byId = await sim.m.get(`/v1/acl/role/${role.ID}`);
    expect(byId.json<Role>()).toEqual(role);
    expect(byId.headers.get('x-nomad-index')).toBe(String(role.ModifyIndex));
    const byName = await sim.m.get('/v1/acl/role/name/developer');
    expect(byName.json<Role>()).toEqual(role);
  });

  it('refuses a second role of the same name on create (400)', async () => {
    await create({ Name: 'dup', Policies: links('operator') });
    const r = await create({ Name: 'dup', Policies: links('operator') });
    expect([r.status, r.text]).toEqual([400, 'role with name dup already exists']);
  });

  it('updates by ID (rename included); a name held by another role is the state store\'s 500', async () => {
    const a = (await create({ Name: 'rename-me', Policies: links('operator') })).json<Role>();
    await create({ Name: 'taken', Policies: links('operator') });
    const u = await sim.m.post(`/v1/acl/role/${a.ID}`, { ID: a.ID, Name: 'renamed', Policies: links('readonly') });
    expect(u.status).toBe(200);
    expect(u.json<Role>()).toMatchObject({ ID: a.ID, Name: 'renamed', Policies: links('readonly'), CreateIndex: a.CreateIndex });
    expect((await sim.m.get('/v1/acl/role/name/rename-me')).status).toBe(404);
    const clash = await sim.m.post(`/v1/acl/role/${a.ID}`, { ID: a.ID, Name: 'taken', Policies: links('readonly') });
    expect([clash.status, clash.text]).toEqual([500, 'ACL role with name taken already exists']);
  });

  it('an update with no change writes nothing: old ModifyIndex, new X-Nomad-Index', async () => {
    const a = (await create({ Name: 'steady', Policies: links('operator') })).json<Role>();
    const u = await sim.m.post(`/v1/acl/role/${a.ID}`, { ID: a.ID, Name: 'steady', Policies: links('operator') });
    expect(u.json<Role>().ModifyIndex).toBe(a.ModifyIndex);
    expect(Number(u.headers.get('x-nomad-index'))).toBeGreaterThan(a.ModifyIndex);
  });

  it('refuses an unknown ID, a mismatched path ID, a missing policy; drops duplicate links', async () => {
    const unknown = await sim.m.post('/v1/acl/role/00000000-0000-0000-0000-000000000000', { ID: '00000000-0000-0000-0000-000000000000', Name: 'x', Policies: links('operator') });
    expect([unknown.status, unknown.text]).toEqual([400, 'cannot find role 00000000-0000-0000-0000-000000000000']);
    // An ID in the body of the create route makes it an update too.
    const viaCreate = await create({ ID: 'abc', Name: 'x', Policies: links('operator') });
    expect([viaCreate.status, viaCreate.text]).toEqual([400, 'cannot find role abc']);
    const mismatch = await sim.m.post('/v1/acl/role/abc', { Name: 'x', Policies: links('operator') });
    expect([mismatch.status, mismatch.text]).toEqual([400, 'ACL role ID does not match request path']);
    const missing = await create({ Name: 'x', Policies: links('operator', 'ghost') });
    expect([missing.status, missing.text]).toEqual([400, 'cannot find policy ghost']);
    const dup = await create({ Name: 'dedup', Policies: links('spare', 'operator', 'spare') });
    expect(dup.json<Role>().Policies).toEqual(links('spare', 'operator'));
  });

  it('validates name, description and at least one policy as one multierror', async () => {
    const r = await create({ Name: 'bad_name', Description: 'é'.repeat(129), Policies: [] });
    expect(r.status).toBe(400);
    expect(r.headers.get('content-type')).toBe(TEXT);
    expect(r.text).toBe(
      "role 0 invalid: 3 errors occurred:\n\t* invalid name 'bad_name'\n\t* description longer than 256\n\t* at least one policy should be specified\n\n",
    );
  });

  it('lists stubs sorted by ID with an ID prefix; others see no roles', async () => {
    const r = await sim.m.get('/v1/acl/roles');
    const list = r.json<Role[]>();
    expect(list.length).toBeGreaterThan(2);
    expect(Object.keys(list[0] ?? {})).toEqual(['ID', 'Name', 'Description', 'Policies', 'Hash', 'CreateIndex', 'ModifyIndex']);
    const ids = list.map((x) => x.ID);
    expect(ids).toEqual([...ids].sort());
    const first = list[0] as Role;
    const p = await sim.m.get(`/v1/acl/roles?prefix=${first.ID.slice(0, 8)}`);
    expect(p.json<Role[]>().map((x) => x.ID)).toContain(first.ID);
    expect((await sim.m.get('/v1/acl/roles?prefix=developer')).text).toBe('[]');
    expect((await sim.c.get('/v1/acl/roles')).text).toBe('[]');
    expect((await sim.anon.get('/v1/acl/roles')).text).toBe('[]');
    const bad = await client(sim.s.url, 'not-a-token').get('/v1/acl/roles');
    expect([bad.status, bad.text]).toEqual([403, 'Permission denied']);
  });

  it('needs management for single reads and every write', async () => {
    const role = (await sim.m.get('/v1/acl/role/name/developer')).json<Role>();
    for (const r of [
      await sim.c.get(`/v1/acl/role/${role.ID}`),
      await sim.anon.get('/v1/acl/role/name/developer'),
      await sim.c.post('/v1/acl/role', { Name: 'y', Policies: links('operator') }),
      await sim.c.del(`/v1/acl/role/${role.ID}`),
    ]) {
      expect([r.status, r.text]).toEqual([403, 'Permission denied']);
    }
  });

  it('routes like Nomad: name lookups are GET only, odd paths are 400, missing role 404', async () => {
    const cases: Array<[string, string, number, string]> = [
      ['GET', '/v1/acl/role/', 400, 'missing ACL role ID'],
      ['GET', '/v1/acl/role/name/', 400, 'missing ACL role name'],
      ['DELETE', '/v1/acl/role/name/developer', 405, 'Invalid method'],
      ['GET', '/v1/acl/role/nam/developer', 400, 'invalid URI'],
      ['GET', '/v1/acl/role/name/a/b', 400, 'invalid URI'],
      ['GET', '/v1/acl/role', 405, 'Invalid method'],
      ['POST', '/v1/acl/roles', 405, 'Invalid method'],
      ['PATCH', '/v1/acl/role/abc', 405, 'Invalid method'],
      ['GET', '/v1/acl/role/name/nobody', 404, 'ACL role not found'],
      ['GET', '/v1/acl/role/abc', 404, 'ACL role not found'],
    ];
    for (const [method, path, status, text] of cases) {
      const r = await sim.m.req(method, path);
      expect([method, path, r.status, r.text]).toEqual([method, path, status, text]);
    }
  });

  it('a blocking list wakes on the next role write; roles replicate with the same Hash', async () => {
    const first = await sim.m.get('/v1/acl/roles');
    const index = Number(first.headers.get('x-nomad-index'));
    const waiting = sim.m.get(`/v1/acl/roles?index=${index}&wait=5s`);
    const made = (await create({ Name: 'late', Policies: links('operator') })).json<Role>();
    const woke = await waiting;
    expect(Number(woke.headers.get('x-nomad-index'))).toBe(made.ModifyIndex);
    expect(woke.json<Role[]>().map((r) => r.ID)).toContain(made.ID);
    const copy = await sim.m.get(`/v1/acl/role/${made.ID}?region=europe`);
    expect(copy.json<Role>().Hash).toBe(made.Hash);
  });

  it('deletes by ID (200, empty); a missing role is a 500; deleting a linked policy leaves a dangling link', async () => {
    await sim.m.put('/v1/acl/policy/temp', { Name: 'temp', Rules: 'node { policy = "read" }' });
    const role = (await create({ Name: 'uses-temp', Policies: links('temp', 'operator') })).json<Role>();
    expect((await sim.m.del('/v1/acl/policy/temp')).status).toBe(200);
    const still = (await sim.m.get(`/v1/acl/role/${role.ID}`)).json<Role>();
    expect(still.Policies).toEqual(links('temp', 'operator'));
    const resend = await sim.m.post(`/v1/acl/role/${role.ID}`, { ID: role.ID, Name: 'uses-temp', Policies: links('temp', 'operator') });
    expect([resend.status, resend.text]).toEqual([400, 'cannot find policy temp']);
    const d = await sim.m.del(`/v1/acl/role/${role.ID}`);
    expect([d.status, d.text]).toEqual([200, '']);
    const again = await sim.m.del(`/v1/acl/role/${role.ID}`);
    expect([again.status, again.text]).toEqual([500, 'ACL role not found']);
  });
});
