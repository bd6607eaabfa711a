import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type Sim } from './helpers.js';

const v = (attrs: Record<string, unknown>) => ({ data: { type: 'vars', attributes: attrs } });

describe('TFE sandbox: workspace variables (docs/reference/hcp-terraform-api.md §6)', () => {
  let sim: Sim;
  let ws: string;
  beforeAll(async () => {
    sim = await startSim();
    ws = (await sim.user.post('/organizations/acme/workspaces', { data: { type: 'workspaces', attributes: { name: 'vars-ws' } } })).body.data.id as string;
  });
  afterAll(async () => sim.s.stop());

  it('create 201 with the documented shape and relationship configurable', async () => {
    const r = await sim.user.post(`/workspaces/${ws}/vars`, v({ key: 'region', value: 'eu-west-1', description: 'where', category: 'terraform', hcl: false, sensitive: false }));
    expect(r.status).toBe(201);
    expect(r.body.data.id).toMatch(/^var-/);
    expect(r.body.data.attributes).toMatchObject({ key: 'region', value: 'eu-west-1', description: 'where', category: 'terraform', hcl: false, sensitive: false });
    expect(r.body.data.attributes['version-id']).toMatch(/^[0-9a-f]+$/);
    expect(r.body.data.relationships.configurable.data).toEqual({ id: ws, type: 'workspaces' });
    expect(r.body.data.links.self).toBe(`/api/v2/workspaces/${ws}/vars/${r.body.data.id}`);
  });

  it('keys are unique per category; bad category and missing key are 422s with pointers', async () => {
    const dup = await sim.user.post(`/workspaces/${ws}/vars`, v({ key: 'region', value: 'x', category: 'terraform' }));
    expect(dup.status).toBe(422);
    expect(dup.body.errors[0]).toMatchObject({ detail: 'Key has already been taken', source: { pointer: '/data/attributes/key' } });
    expect((await sim.user.post(`/workspaces/${ws}/vars`, v({ key: 'region', value: 'x', category: 'env' }))).status).toBe(201);
    const cat = await sim.user.post(`/workspaces/${ws}/vars`, v({ key: 'k', category: 'policy' }));
    expect(cat.body.errors[0].source.pointer).toBe('/data/attributes/category');
    const key = await sim.user.post(`/workspaces/${ws}/vars`, v({ value: 'x', category: 'env' }));
    expect(key.body.errors[0].source.pointer).toBe('/data/attributes/key');
  });

  it('sensitive values are never returned', async () => {
    const r = await sim.user.post(`/workspaces/${ws}/vars`, v({ key: 'db_password', value: 'hunter2', category: 'terraform', sensitive: true }));
    expect(r.body.data.attributes.value).toBeNull();
    const list = await sim.user.get(`/workspaces/${ws}/vars`);
    expect(list.text).not.toContain('hunter2');
    const patched = await sim.user.patch(`/workspaces/${ws}/vars/${r.body.data.id}`, { data: { id: r.body.data.id, type: 'vars', attributes: { value: 'new-secret' } } });
    expect(patched.status).toBe(200);
    expect(patched.text).not.toContain('new-secret');
    expect(patched.body.data.attributes['version-id']).not.toBe(r.body.data.attributes['version-id']);
    const off = await sim.user.patch(`/workspaces/${ws}/vars/${r.body.data.id}`, { data: { id: r.body.data.id, type: 'vars', attributes: { sensitive: false } } });
    expect(off.status).toBe(422);
  });

  it("shows one variable (go-tfe's Variables.Read), sensitive value hidden; 404 for an unknown id", async () => {
    const made = await sim.user.post(`/workspaces/${ws}/vars`, v({ key: 'api_key', value: 'k-123', category: 'env', sensitive: true }));
    const id = made.body.data.id as string;
    const r = await sim.user.get(`/workspaces/${ws}/vars/${id}`);
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ id, type: 'vars', attributes: { key: 'api_key', category: 'env', sensitive: true, value: null } });
    expect(r.text).not.toContain('k-123');
    expect((await sim.user.get(`/workspaces/${ws}/vars/var-doesnotexist`)).status).toBe(404);
  });

  it('update needs data.id, keeps omitted attributes; delete 204 then 404', async () => {
    const made = await sim.user.post(`/workspaces/${ws}/vars`, v({ key: 'size', value: '3', category: 'terraform', hcl: true }));
    const id = made.body.data.id as string;
    const noId = await sim.user.patch(`/workspaces/${ws}/vars/${id}`, { data: { type: 'vars', attributes: { value: '4' } } });
    expect(noId.status).toBe(422);
    expect(noId.body.errors[0].source.pointer).toBe('/data/id');
    const r = await sim.team.patch(`/workspaces/${ws}/vars/${id}`, { data: { id, type: 'vars', attributes: { value: '4' } } });
    expect(r.status).toBe(200);
    expect(r.body.data.attributes).toMatchObject({ key: 'size', value: '4', hcl: true, category: 'terraform' });
    const clash = await sim.user.patch(`/workspaces/${ws}/vars/${id}`, { data: { id, type: 'vars', attributes: { key: 'region' } } });
    expect(clash.status).toBe(422);
    expect((await sim.user.del(`/workspaces/${ws}/vars/${id}`)).status).toBe(204);
    expect((await sim.user.del(`/workspaces/${ws}/vars/${id}`)).status).toBe(404);
    expect((await sim.user.get('/workspaces/ws-nope/vars')).status).toBe(404);
  });
});
