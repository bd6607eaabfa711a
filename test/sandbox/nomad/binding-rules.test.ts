import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEXT, oidc, startSim, type Sim } from './helpers.js';

interface Rule {
  ID: string;
  Description: string;
  AuthMethod: string;
  Selector: string;
  BindType: string;
  BindName: string;
  Hash: string;
  CreateTime: string;
  ModifyTime: string;
  CreateIndex: number;
  ModifyIndex: number;
}

let sim: Sim;
beforeAll(async () => {
  sim = await startSim();
  await sim.m.post('/v1/acl/auth-method', oidc('corp'));
  await sim.m.post('/v1/acl/auth-method', oidc('other'));
});
afterAll(async () => {
  await sim.s.stop();
});

const create = (body: Record<string, unknown>) => sim.m.post('/v1/acl/binding-rule', body);
const base = { AuthMethod: 'corp', BindType: 'role', BindName: 'eng', Selector: '"engineering" in list.groups', Description: 'engineers' };

describe('binding rules (docs/reference/nomad-api.md §10)', () => {
  it('creates with a server ID and answers in the real field order', async () => {
    const r = await create(base);
    expect(r.status).toBe(200);
    const rule = r.json<Rule>();
    expect(Object.keys(rule)).toEqual(['ID', 'Description', 'AuthMethod', 'Selector', 'BindType', 'BindName', 'Hash', 'CreateTime', 'ModifyTime', 'CreateIndex', 'ModifyIndex']);
    expect(rule.ID).toMatch(/^[0-9a-f-]{36}$/);
    expect(Buffer.from(rule.Hash, 'base64')).toHaveLength(32);
    expect(r.headers.get('x-nomad-index')).toBe(String(rule.ModifyIndex));
    const g = await sim.m.get(`/v1/acl/binding-rule/${rule.ID}`);
    expect(g.json<Rule>()).toEqual(rule);
    expect(g.headers.get('x-nomad-index')).toBe(String(rule.ModifyIndex));
  });

  it('lists stubs, and only for management', async () => {
    const r = await sim.m.get('/v1/acl/binding-rules');
    expect(r.status).toBe(200);
    const list = r.json<Array<Record<string, unknown>>>();
    expect(Object.keys(list[0] ?? {})).toEqual(['ID', 'Description', 'AuthMethod', 'Hash', 'CreateIndex', 'ModifyIndex']);
    for (const who of [sim.anon, sim.c]) {
      const d = await who.get('/v1/acl/binding-rules');
      expect([d.status, d.text]).toEqual([403, 'Permission denied']);
    }
  });

  it('needs management for read, write and delete', async () => {
    const rule = (await create(base)).json<Rule>();
    for (const r of [await sim.c.get(`/v1/acl/binding-rule/${rule.ID}`), await sim.c.post('/v1/acl/binding-rule', base), await sim.anon.del(`/v1/acl/binding-rule/${rule.ID}`)]) {
      expect([r.status, r.text]).toEqual([403, 'Permission denied']);
    }
  });

  it('fills an empty body ID from the path, and refuses a different one', async () => {
    const rule = (await create(base)).json<Rule>();
    const ok = await sim.m.put(`/v1/acl/binding-rule/${rule.ID}`, { ...base, BindName: 'eng2' });
    expect(ok.json<Rule>().BindName).toBe('eng2');
    const bad = await sim.m.put(`/v1/acl/binding-rule/${rule.ID}`, { ...base, ID: 'something-else' });
    expect([bad.status, bad.text]).toEqual([400, 'ACL binding rule ID does not match request path']);
  });

  it('merges only BindName, BindType and AuthMethod; omitted Description and Selector are cleared', async () => {
    const rule = (await create(base)).json<Rule>();
    const r = await sim.m.put(`/v1/acl/binding-rule/${rule.ID}`, {});
    expect(r.status).toBe(200);
    const u = r.json<Rule>();
    expect([u.AuthMethod, u.BindType, u.BindName]).toEqual(['corp', 'role', 'eng']);
    expect([u.Description, u.Selector]).toEqual(['', '']);
    expect(u.CreateIndex).toBe(rule.CreateIndex);
    expect(u.CreateTime).toBe(rule.CreateTime);
    expect(u.ModifyIndex).toBeGreaterThan(rule.ModifyIndex);
  });

  it('keeps the old ModifyIndex on a no-op update', async () => {
    const rule = (await create(base)).json<Rule>();
    const r = await sim.m.put(`/v1/acl/binding-rule/${rule.ID}`, base);
    expect(r.json<Rule>().ModifyIndex).toBe(rule.ModifyIndex);
    expect(Number(r.headers.get('x-nomad-index'))).toBeGreaterThan(rule.ModifyIndex);
  });

  it('refuses an unknown ID, a changed auth method and a missing auth method', async () => {
    const a = await sim.m.put('/v1/acl/binding-rule/0000-nope', base);
    expect([a.status, a.text]).toEqual([400, 'cannot find binding rule 0000-nope']);
    const rule = (await create(base)).json<Rule>();
    const b = await sim.m.put(`/v1/acl/binding-rule/${rule.ID}`, { ...base, AuthMethod: 'other' });
    expect([b.status, b.text]).toEqual([400, 'cannot update auth method for binding rule, create a new rule instead']);
    const c = await create({ ...base, AuthMethod: 'ghost' });
    expect([c.status, c.text]).toEqual([400, 'ACL auth method ghost not found']);
  });

  it('validates with the real multierror texts', async () => {
    const a = await create({ Description: 'x'.repeat(257), BindType: 'group', Selector: 'value.a ==' });
    expect(a.status).toBe(400);
    expect(a.headers.get('content-type')).toBe(TEXT);
    expect(a.text).toMatch(
      /^binding rule 0 invalid: 4 errors occurred:\n\t\* auth method is missing\n\t\* description longer than 256\n\t\* unsupported bind type: "group"\n\t\* selector is invalid: .+\n\n$/,
    );
    expect((await create({ AuthMethod: 'corp' })).text).toBe('binding rule 0 invalid: 1 error occurred:\n\t* bind type is missing\n\n');
    expect((await create({ AuthMethod: 'corp', BindType: 'policy' })).text).toContain('* bind name is missing');
    expect((await create({ AuthMethod: 'corp', BindType: 'management', BindName: 'x' })).text).toContain('* bind name should be empty');
    expect((await create({ AuthMethod: 'corp', BindType: 'management' })).status).toBe(200);
    // Go len(): 130 × "é" is 130 characters but 260 bytes.
    expect((await create({ AuthMethod: 'corp', BindType: 'management', Description: 'é'.repeat(130) })).text).toContain('* description longer than 256');
    expect((await create({ AuthMethod: 'corp', BindType: 'management', Description: 'é'.repeat(128) })).status).toBe(200);
  });

  it('parse-checks selectors (a go-bexpr subset)', async () => {
    const good = [
      'value.email == "a@b.c"',
      'value.team != `ops`',
      '"admins" in list.groups',
      '"x" not in list.groups',
      'list.groups contains "a" and value.x is not empty',
      'not (value.a == 1 or value.b matches "^x.*$")',
      'value["odd key"] is empty',
    ];
    for (const s of good) expect([s, (await create({ ...base, Selector: s })).status]).toEqual([s, 200]);
    const bad = ['value.a ==', 'value.a = "b"', '(value.a == "b"', 'value.a == "b" and', 'value.a matches "("', '"unterminated', 'value.a is full'];
    for (const s of bad) {
      const r = await create({ ...base, Selector: s });
      expect([s, r.status]).toEqual([s, 400]);
      expect(r.text).toMatch(/^binding rule 0 invalid: 1 error occurred:\n\t\* selector is invalid: .+/);
    }
  });

  it('does not check bind names against roles or policies (the sandbox has none)', async () => {
    expect((await create({ ...base, BindName: 'no-such-role' })).status).toBe(200);
  });

  it('answers a missing rule with 404 on GET and 500 on DELETE; deletes with 200 and no body', async () => {
    const g = await sim.m.get('/v1/acl/binding-rule/missing');
    expect([g.status, g.text]).toEqual([404, 'ACL binding rule not found']);
    const d = await sim.m.del('/v1/acl/binding-rule/missing');
    expect([d.status, d.text]).toEqual([500, 'ACL binding rule not found']);
    const rule = (await create(base)).json<Rule>();
    const ok = await sim.m.del(`/v1/acl/binding-rule/${rule.ID}`);
    expect([ok.status, ok.text]).toEqual([200, '']);
  });

  it('routes: 405 for wrong methods, 400 for a missing ID', async () => {
    expect((await sim.m.get('/v1/acl/binding-rule')).status).toBe(405);
    expect((await sim.m.post('/v1/acl/binding-rules', base)).status).toBe(405);
    expect((await sim.m.req('PATCH', '/v1/acl/binding-rule/x')).status).toBe(405);
    const r = await sim.m.get('/v1/acl/binding-rule/');
    expect([r.status, r.text]).toEqual([400, 'missing ACL binding rule ID']);
  });

  it('leaves rules orphaned when their auth method is deleted (docs/reference/nomad-api.md §8)', async () => {
    await sim.m.post('/v1/acl/auth-method', oidc('temp'));
    const rule = (await create({ ...base, AuthMethod: 'temp' })).json<Rule>();
    expect((await sim.m.del('/v1/acl/auth-method/temp')).status).toBe(200);
    const g = await sim.m.get(`/v1/acl/binding-rule/${rule.ID}`);
    expect(g.status).toBe(200);
    expect(g.json<Rule>().AuthMethod).toBe('temp');
  });
});
