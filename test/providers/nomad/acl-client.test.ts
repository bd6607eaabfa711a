import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConvergeError } from '../../../src/diagnostics/errors.js';
import { createHttpClient } from '../../../src/http/client.js';
import type { HttpClient } from '../../../src/http/types.js';
import { NomadClient } from '../../../src/providers/nomad/client.js';
import { deleteAclPolicy, listAclPolicies, readAclPolicy, upsertAclPolicy } from '../../../src/kinds/nomad-acl-policy/remote/endpoints.js';
import { parseAclPolicy } from '../../../src/kinds/nomad-acl-policy/remote/wire.js';
import { createAclRole, deleteAclRole, listAclRoles, readAclRole, readAclRoleByName, updateAclRole } from '../../../src/kinds/nomad-acl-role/remote/endpoints.js';
import { parseAclRole, parseAclRoles } from '../../../src/kinds/nomad-acl-role/remote/wire.js';
import { startNomadSimulator, type NomadSimHandle } from '../../../src/sandbox/nomad/index.js';
import { RANGE } from './helpers.js';

let sim: NomadSimHandle;
let http: HttpClient;
let nomad: NomadClient;

beforeAll(async () => {
  sim = await startNomadSimulator({ port: 0 });
  http = createHttpClient({ baseUrl: sim.url, retry: { retries: 3, minTimeoutMs: 1, maxTimeoutMs: 5 } });
  nomad = new NomadClient({ http, token: sim.managementToken, redact: (text) => text });
});
afterAll(async () => {
  await http.close();
  await sim.stop();
});
afterEach(() => {
  sim.faults.reset();
});

const RULES = 'namespace "*" { policy = "write" }   \r\nnode { policy = "read" }\n';
const policy = (name: string, extra: Partial<{ Description: string; Rules: string }> = {}) => ({ Name: name, Description: '', Rules: RULES, JobACL: null, ...extra });

async function caught(p: Promise<unknown>): Promise<ConvergeError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(ConvergeError);
  return e as ConvergeError;
}

const requests = (method: string, pathPart: string) => sim.log.entries().filter((e) => e.method === method && e.path.includes(pathPart)).length;

describe('ACL policy endpoints over a NomadClient', () => {
  it('upserts, reads back the rules byte for byte, lists, and deletes idempotently', async () => {
    const index = await upsertAclPolicy(nomad, { ...policy('operator', { Description: 'Operate jobs' }), JobACL: { Namespace: 'default', JobID: 'example', Group: '', Task: '' } });
    expect(index).toBeGreaterThan(0);
    const p = await readAclPolicy(nomad, 'operator');
    expect(p).toMatchObject({ Name: 'operator', Description: 'Operate jobs', Rules: RULES, JobACL: { Namespace: 'default', JobID: 'example', Group: '', Task: '' }, ModifyIndex: index });
    expect(p?.Hash).toMatch(/=$/);
    const list = await listAclPolicies(nomad);
    expect(list.map((x) => x.Name)).toContain('operator');
    expect(list.find((x) => x.Name === 'operator')).not.toHaveProperty('Rules');
    await deleteAclPolicy(nomad, 'operator');
    expect(await readAclPolicy(nomad, 'operator')).toBeUndefined();
    await deleteAclPolicy(nomad, 'operator'); // missing: still 200
  });

  it('a policy named self is refused before any request (its path is the caller\'s own list)', async () => {
    const before = requests('POST', '/v1/acl/policy/');
    const e = await caught(upsertAclPolicy(nomad, policy('self'), { range: RANGE }));
    expect(e.code).toBe('nomad.policy-name-reserved');
    expect(e.range).toEqual(RANGE);
    expect(requests('POST', '/v1/acl/policy/')).toBe(before);
  });

  it('invalid rules: nomad.invalid with Nomad\'s words and the manifest range', async () => {
    const e = await caught(upsertAclPolicy(nomad, policy('broken', { Rules: 'namespace "default" { policy = "writ" }' }), { range: RANGE }));
    expect(e.code).toBe('nomad.invalid');
    expect(e.message).toContain('Invalid namespace policy');
    expect(e.range).toEqual(RANGE);
  });

  it('a non-management token: writes 403 (permission-denied), list shows nothing of others', async () => {
    const weak = new NomadClient({ http, token: sim.clientToken, redact: (text) => text });
    await upsertAclPolicy(nomad, policy('visible-to-management'));
    expect((await caught(upsertAclPolicy(weak, policy('x')))).code).toBe('nomad.permission-denied');
    expect(await listAclPolicies(weak)).toEqual([]);
  });

  it('retries an upsert after a 500 (it is keyed by name)', async () => {
    sim.faults.set({ failNextWrites: 1 });
    await upsertAclPolicy(nomad, policy('retried'));
    expect((await readAclPolicy(nomad, 'retried'))?.Rules).toBe(RULES);
  });
});

describe('ACL role endpoints over a NomadClient', () => {
  beforeAll(async () => {
    for (const name of ['operator', 'readonly']) await upsertAclPolicy(nomad, policy(name));
  });

  it('creates, reads by ID and by name, renames by ID, lists and deletes', async () => {
    const created = await createAclRole(nomad, { Name: 'developer', Description: 'Application developers', Policies: [{ Name: 'operator' }, { Name: 'readonly' }] });
    expect(created.ID).toMatch(/^[0-9a-f-]{36}$/);
    expect(await readAclRole(nomad, created.ID)).toEqual(created);
    expect(await readAclRoleByName(nomad, 'developer')).toEqual(created);
    const renamed = await updateAclRole(nomad, created.ID, { Name: 'dev', Description: '', Policies: [{ Name: 'readonly' }] });
    expect(renamed).toMatchObject({ ID: created.ID, Name: 'dev', Description: '', Policies: [{ Name: 'readonly' }], CreateIndex: created.CreateIndex });
    expect(await readAclRoleByName(nomad, 'developer')).toBeUndefined();
    expect((await listAclRoles(nomad)).map((r) => r.ID)).toContain(created.ID);
    expect(await deleteAclRole(nomad, created.ID, 'NomadAclRole/dev')).toBe('deleted');
    expect(await readAclRole(nomad, created.ID)).toBeUndefined();
  });

  it('deleting a missing role is already-gone after one read, not six retries of its 500', async () => {
    const gets = requests('GET', '/v1/acl/role/');
    const dels = requests('DELETE', '/v1/acl/role/');
    expect(await deleteAclRole(nomad, '00000000-0000-4000-8000-000000000000', 'NomadAclRole/ghost')).toBe('already-gone');
    expect(requests('DELETE', '/v1/acl/role/') - dels).toBe(1);
    expect(requests('GET', '/v1/acl/role/') - gets).toBe(1);
  });

  it('a rename onto another role\'s name is the user\'s error, sent once (the 500 is final)', async () => {
    await createAclRole(nomad, { Name: 'taken', Description: '', Policies: [{ Name: 'operator' }] });
    const mine = await createAclRole(nomad, { Name: 'mine', Description: '', Policies: [{ Name: 'operator' }] });
    const posts = requests('POST', `/v1/acl/role/${mine.ID}`);
    const e = await caught(updateAclRole(nomad, mine.ID, { Name: 'taken', Description: '', Policies: [{ Name: 'operator' }] }, { range: RANGE }));
    expect([e.code, e.source]).toEqual(['nomad.role-name-taken', 'user']);
    expect(e.message).toContain('taken');
    expect(e.range).toEqual(RANGE);
    expect(requests('POST', `/v1/acl/role/${mine.ID}`) - posts).toBe(1);
  });

  it('a create whose first attempt fails is sent again only after a read by name finds nothing', async () => {
    sim.faults.set({ failNextWrites: 1 });
    const before = requests('GET', '/v1/acl/role/name/again');
    const r = await createAclRole(nomad, { Name: 'again', Description: '', Policies: [{ Name: 'operator' }] });
    expect(r.Name).toBe('again');
    expect(requests('GET', '/v1/acl/role/name/again') - before).toBe(1);
    expect((await listAclRoles(nomad)).filter((x) => x.Name === 'again')).toHaveLength(1);
  });

  it('a missing policy link and a taken name on create are nomad.invalid', async () => {
    expect((await caught(createAclRole(nomad, { Name: 'ghosted', Description: '', Policies: [{ Name: 'ghost' }] }))).message).toContain('cannot find policy ghost');
    expect((await caught(createAclRole(nomad, { Name: 'taken', Description: '', Policies: [{ Name: 'operator' }] }))).code).toBe('nomad.invalid');
  });
});

describe('ACL wire shapes are checked at the boundary', () => {
  it('names the offending field', () => {
    expect(() => parseAclRole({ ID: 'x', Name: 'n', Policies: [{ Name: 3 }] }, 'NomadAclRole/n')).toThrow(/Policies\[0\]\.Name is not a string/);
    expect(() => parseAclRoles({})).toThrow(/body is not an array/);
    expect(() => parseAclPolicy({ Name: 'p', JobACL: 'x' }, 'p')).toThrow(/JobACL is not an object/);
    // Nomad answers an empty list as [] (command/agent/acl_endpoint.go); null is not Nomad's answer.
    expect(() => parseAclRoles(null)).toThrow(/body is not an array/);
  });
});
