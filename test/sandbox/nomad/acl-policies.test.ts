import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEXT, client, startSim, type Sim } from './helpers.js';

interface Policy {
  Name: string;
  Description: string;
  Rules: string;
  RulesJSON: Record<string, unknown> | null;
  JobACL: Record<string, string> | null;
  Hash: string;
  CreateIndex: number;
  ModifyIndex: number;
}

let sim: Sim;
beforeAll(async () => {
  sim = await startSim({ replicaRegions: ['europe'] });
});
afterAll(async () => {
  await sim.s.stop();
});

const OPERATOR = 'namespace "*" { policy = "write" }\nnode { policy = "read" }\n';
const put = (name: string, body: Record<string, unknown>) => sim.m.put(`/v1/acl/policy/${name}`, { Name: name, ...body });

describe('ACL policies (SPEC.md "ACL policies")', () => {
  it('creates by name with an empty 200 and reads back in go-codec field order with RulesJSON', async () => {
    const w = await put('operator', { Description: 'Operate jobs', Rules: OPERATOR });
    expect([w.status, w.text, w.headers.get('content-type')]).toEqual([200, '', null]);
    const index = Number(w.headers.get('x-nomad-index'));
    const g = await sim.m.get('/v1/acl/policy/operator');
    expect(g.status).toBe(200);
    const p = g.json<Policy>();
    expect(Object.keys(p)).toEqual(['Name', 'Description', 'Rules', 'RulesJSON', 'JobACL', 'Hash', 'CreateIndex', 'ModifyIndex']);
    expect(p).toMatchObject({ Name: 'operator', Description: 'Operate jobs', Rules: OPERATOR, JobACL: null, CreateIndex: index, ModifyIndex: index });
    expect(Buffer.from(p.Hash, 'base64')).toHaveLength(32);
    expect(g.headers.get('x-nomad-index')).toBe(String(index));
    // The shorthand is expanded into capabilities in the parsed form.
    const ns = (p.RulesJSON?.Namespaces as Array<Record<string, unknown>>)[0];
    expect(ns).toMatchObject({ Name: '*', Policy: 'write', Variables: null });
    expect(ns?.Capabilities).toContain('submit-job');
    expect(p.RulesJSON?.Node).toEqual({ Policy: 'read' });
    expect(p.RulesJSON?.Raw).toBe(OPERATOR);
  });

  it('updates by name; even an identical upsert writes and moves ModifyIndex (no no-op check)', async () => {
    await put('same', { Rules: OPERATOR });
    const a = (await sim.m.get('/v1/acl/policy/same')).json<Policy>();
    await put('same', { Rules: OPERATOR });
    const b = (await sim.m.get('/v1/acl/policy/same')).json<Policy>();
    expect(b.Hash).toBe(a.Hash);
    expect(b.CreateIndex).toBe(a.CreateIndex);
    expect(b.ModifyIndex).toBeGreaterThan(a.ModifyIndex);
  });

  it('lists stubs sorted by name, with prefix, index floored at 1', async () => {
    const fresh = await startSim();
    const empty = await fresh.m.get('/v1/acl/policies');
    expect([empty.status, empty.text, empty.headers.get('x-nomad-index')]).toEqual([200, '[]', '1']);
    await fresh.s.stop();
    await put('zeta', { Rules: OPERATOR, JobACL: { Namespace: 'default', JobID: 'example' } });
    const r = await sim.m.get('/v1/acl/policies');
    const list = r.json<Array<Record<string, unknown>>>();
    expect(Object.keys(list[0] ?? {})).toEqual(['Name', 'Description', 'JobACL', 'Hash', 'CreateIndex', 'ModifyIndex']);
    const names = list.map((x) => x.Name as string);
    expect(names).toEqual([...names].sort());
    expect(list.find((x) => x.Name === 'zeta')?.JobACL).toEqual({ Namespace: 'default', JobID: 'example', Group: '', Task: '' });
    const z = await sim.m.get('/v1/acl/policies?prefix=ze');
    expect(z.json<Array<{ Name: string }>>().map((x) => x.Name)).toEqual(['zeta']);
  });

  it('validates name, rules, description and JobACL as one multierror', async () => {
    const r = await sim.m.put('/v1/acl/policy/bad_name', {
      Name: 'bad_name',
      Rules: 'namespace "default" { policy = "writ" }',
      Description: 'x'.repeat(257),
      JobACL: { Group: 'web' },
    });
    expect(r.status).toBe(400);
    expect(r.headers.get('content-type')).toBe(TEXT);
    expect(r.text).toBe(
      'policy 0 invalid: 4 errors occurred:\n' +
        "\t* invalid name 'bad_name'\n" +
        '\t* failed to parse rules: Invalid namespace policy: &acl.NamespacePolicy{Name:"default", Policy:"writ", Capabilities:[]string(nil), Variables:(*acl.VariablesPolicy)(nil)}\n' +
        '\t* description longer than 256\n' +
        '\t* job ID must be set to set group\n\n',
    );
  });

  it.each([
    ['namespace "default" { policy = "read" ', 'Failed to parse ACL Policy: At 1:'],
    ['nmespace "default" { policy = "read" }\nnode { policy = "read" }', 'Invalid or duplicate policy keys: nmespace'],
    ['namespace "default" { capabilities = ["submit-jobs"] }', "Invalid namespace capability 'submit-jobs'"],
    ['namespace "default" { variables { path "/a" { capabilities = ["read"] } } }', 'cannot start with a leading'],
    ['namespace "default" { variables { path "a" { capabilities = ["reed"] } } }', "Invalid variable capability 'reed' in namespace default"],
    ['agent { policy = "list" }', 'Invalid agent policy: &acl.AgentPolicy{Policy:"list"}'],
    ['plugin { policy = "scale" }', 'Invalid plugin policy'],
    ['operator { capabilities = ["snapshot-load"] }', "Invalid operator capability 'snapshot-load'"],
    ['node_pool "prod" { policy = "read" capabilities = ["nope"] }', "Invalid node pool capability 'nope' for 'prod'"],
    ['foo { policy = "read" }', 'Invalid policy: foo'],
  ])('refuses rules %j', async (rules, fragment) => {
    const r = await put('bad', { Rules: rules });
    expect(r.status).toBe(400);
    expect(r.text).toContain(fragment);
  });

  it('lists unknown and duplicated top-level keys sorted, as Nomad\'s own test expects', async () => {
    // Shortened from acl/policy_test.go (TestParse_BadInput's strict-mode policy).
    const rules = ['bogus { policy = "read" }', 'anotherbogus { policy = "write" }', 'node { policy = "read" }', 'node { policy = "write" }', 'agent { policy = "read" }', 'agent { policy = "write" }'].join('\n');
    const r = await put('dupes', { Rules: rules });
    expect(r.text).toContain('Invalid or duplicate policy keys: agent, anotherbogus, bogus, node\n');
  });

  it('matches keys ignoring case, as HCL 1 does, but not values', async () => {
    expect((await put('shouty', { Rules: 'NAMESPACE "default" { Policy = "read" }\nNode { POLICY = "read" }' })).status).toBe(200);
    const r = await put('shouty', { Rules: 'namespace "default" { policy = "Read" }' });
    expect(r.text).toContain('Invalid namespace policy');
    const label = await put('labelled', { Rules: 'agent "x" { policy = "read" }' });
    expect(label.text).toContain('Invalid or duplicate policy keys: x');
  });

  it('reads rules that start with { as JSON, labels as object keys', async () => {
    const json = '{"namespace": [{"default": {"policy": "write"}}], "node": {"policy": "read"}}';
    expect((await put('json', { Rules: json })).status).toBe(200);
    const p = (await sim.m.get('/v1/acl/policy/json')).json<Policy>();
    expect((p.RulesJSON?.Namespaces as Array<{ Name: string; Policy: string }>)[0]).toMatchObject({ Name: 'default', Policy: 'write' });
    const bad = await put('json', { Rules: '{"namespace": {"default": {"policy": "nope"}}}' });
    expect(bad.text).toContain('Invalid namespace policy');
    expect((await put('json', { Rules: '{"namespace": ' })).text).toContain('Failed to parse ACL Policy: At 1:');
  });

  it('accepts empty rules and every documented block', async () => {
    expect((await put('empty', { Rules: '' })).status).toBe(200);
    const all = [
      'namespace "default" {',
      '  policy       = "read"',
      '  capabilities = ["submit-job", "dispatch-job", "read-logs"]',
      '  variables {',
      '    path "project/*" { capabilities = ["write", "read", "destroy", "list"] }',
      '  }',
      '}',
      'node_pool "prod" { policy = "write" }',
      'host_volume "ca-certs" { policy = "read" }',
      'agent { policy = "read" }',
      'node { policy = "write" }',
      'operator { policy = "read" }',
      'quota { policy = "read" }',
      'plugin { policy = "list" }',
      '# a comment',
      '',
    ].join('\n');
    const r = await put('everything', { Rules: all });
    expect([r.status, r.text]).toEqual([200, '']);
  });

  it('refuses a body name that differs from the path, an empty name, and other methods', async () => {
    const r = await sim.m.put('/v1/acl/policy/a', { Name: 'b', Rules: OPERATOR });
    expect([r.status, r.text]).toEqual([400, 'ACL policy name does not match request path']);
    const e = await sim.m.get('/v1/acl/policy/');
    expect([e.status, e.text]).toEqual([400, 'Missing Policy Name']);
    const m = await sim.m.req('PATCH', '/v1/acl/policy/a');
    expect([m.status, m.text]).toEqual([405, 'Invalid method']);
    const l = await sim.m.post('/v1/acl/policies', {});
    expect([l.status, l.text]).toEqual([405, 'Invalid method']);
    // Go's mux redirects the subtree root without its slash.
    const bare = await fetch(`${sim.s.url}/v1/acl/policy`, { redirect: 'manual' });
    expect([bare.status, bare.headers.get('location')]).toEqual([301, '/v1/acl/policy/']);
  });

  it('`self` is the caller\'s policy list, so a policy named self cannot be written', async () => {
    const s = await sim.m.get('/v1/acl/policy/self');
    expect(s.status).toBe(200);
    expect(Array.isArray(s.json())).toBe(true);
    const w = await sim.m.put('/v1/acl/policy/self', { Name: 'self', Rules: OPERATOR });
    expect([w.status, w.text]).toEqual([405, 'Invalid method']);
  });

  it('needs management to write; others read only their own policies; a bad token is 403', async () => {
    for (const r of [await sim.c.put('/v1/acl/policy/x', { Name: 'x', Rules: OPERATOR }), await sim.anon.del('/v1/acl/policy/operator')]) {
      expect([r.status, r.text]).toEqual([403, 'Permission denied']);
    }
    expect((await sim.c.get('/v1/acl/policy/operator')).status).toBe(403);
    expect((await sim.c.get('/v1/acl/policies')).text).toBe('[]');
    const bad = await client(sim.s.url, 'not-a-token').get('/v1/acl/policies');
    expect([bad.status, bad.text]).toEqual([403, 'Permission denied']);
    // The anonymous token carries the `anonymous` policy; anyone may read that one.
    await put('anonymous', { Rules: 'namespace "default" { policy = "read" }' });
    expect((await sim.anon.get('/v1/acl/policies')).json<Array<{ Name: string }>>().map((p) => p.Name)).toEqual(['anonymous']);
    expect((await sim.c.get('/v1/acl/policy/anonymous')).status).toBe(200);
  });

  it('404 on a missing policy with the table index; delete is 200 even when missing', async () => {
    const g = await sim.m.get('/v1/acl/policy/nope');
    expect([g.status, g.text]).toEqual([404, 'ACL policy not found']);
    expect(Number(g.headers.get('x-nomad-index'))).toBeGreaterThan(0);
    await put('doomed', { Rules: OPERATOR });
    const d = await sim.m.del('/v1/acl/policy/doomed');
    expect([d.status, d.text]).toEqual([200, '']);
    expect((await sim.m.get('/v1/acl/policy/doomed')).status).toBe(404);
    const again = await sim.m.del('/v1/acl/policy/doomed');
    expect([again.status, again.text]).toEqual([200, '']);
  });

  it('replicates to other regions with region-local indexes', async () => {
    await put('replicated', { Rules: OPERATOR });
    const a = (await sim.m.get('/v1/acl/policy/replicated')).json<Policy>();
    const e = await sim.m.get('/v1/acl/policy/replicated?region=europe');
    expect(e.status).toBe(200);
    const b = e.json<Policy>();
    expect(b.Hash).toBe(a.Hash);
    expect(b.ModifyIndex).not.toBe(a.ModifyIndex);
  });

  it('answers ACL support disabled when ACLs are off', async () => {
    const off = await startSim({ aclEnabled: false });
    const r = await off.m.get('/v1/acl/policies');
    expect([r.status, r.text]).toEqual([400, 'ACL support disabled']);
    await off.s.stop();
  });
});
