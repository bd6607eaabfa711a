import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enableBody, moduleId, startSim, type Sim } from './helpers.js';

const BAD_PIN =
  'Validation failed: Provided version pin is not equal to latest or provided string does not represent an existing version of the module.';

const opt = (name: string, options: unknown[], id?: string) => ({
  type: 'variable-options',
  ...(id ? { id } : {}),
  attributes: { 'variable-name': name, 'variable-type': 'string', options },
});

describe('TFE sandbox: no-code modules (docs/reference/hcp-terraform-api.md §1)', () => {
  let sim: Sim;
  let vpc: string;
  let lambda: string;
  beforeAll(async () => {
    sim = await startSim();
    vpc = await moduleId(sim.user, 'vpc');
    lambda = await moduleId(sim.user, 'lambda');
  });
  afterAll(async () => sim.s.stop());

  it('enable answers 200 with the documented shape; a duplicate for the same module is a 422', async () => {
    const r = await sim.user.post('/organizations/acme/no-code-modules', enableBody(vpc, { 'version-pin': '1.4.0', enabled: true }, [opt('region', ['eu-west-1', 'us-east-1'])]));
    expect(r.status).toBe(200);
    const d = r.body.data;
    expect(d.id).toMatch(/^nocode-[A-Za-z0-9]{16}$/);
    expect(d.type).toBe('no-code-modules');
    expect(d.attributes).toEqual({ enabled: true, 'version-pin': '1.4.0' });
    expect(d.relationships.organization.data).toEqual({ id: 'acme', type: 'organizations' });
    expect(d.relationships['registry-module']).toEqual({ data: { id: vpc, type: 'registry-modules' }, links: { related: `/api/v2/registry-modules/${vpc}` } });
    expect(d.relationships['variable-options'].data).toHaveLength(1);
    expect(d.relationships['variable-options'].data[0].id).toMatch(/^ncvaropt-/);
    expect(d.links.self).toBe(`/api/v2/no-code-modules/${d.id}`);
    const dup = await sim.user.post('/organizations/acme/no-code-modules', enableBody(vpc));
    expect(dup.status).toBe(422);
    expect(dup.body.errors[0]).toMatchObject({ status: '422', source: { pointer: '/data/relationships/registry-module' } });
    expect((await sim.user.del(`/no-code-modules/${d.id}`)).status).toBe(204);
  });

  it('enable defaults: pin = latest version, enabled = false (the spec; reference "Spec versus real")', async () => {
    const r = await sim.team.post('/organizations/acme/no-code-modules', enableBody(lambda, {}));
    expect(r.status).toBe(200);
    expect(r.body.data.attributes).toEqual({ enabled: false, 'version-pin': '1.1.0' });
    await sim.user.del(`/no-code-modules/${r.body.data.id}`);
  });

  it('enable refuses a pin that is not an ingested version with the real 422 text', async () => {
    const r = await sim.user.post('/organizations/acme/no-code-modules', enableBody(vpc, { 'version-pin': '9.0.0', enabled: true }));
    expect(r.status).toBe(422);
    expect(r.body.errors[0]).toEqual({ status: '422', title: 'unprocessable entity', detail: BAD_PIN });
  });

  it('enable: malformed bodies are 422s with pointers; unknown module 404; both type spellings work', async () => {
    const cases: [unknown, string][] = [
      [{ data: { type: 'no-code-modules', attributes: { enabled: true } } }, '/data/relationships/registry-module'],
      [{ data: { type: 'nope', relationships: { 'registry-module': { data: { id: vpc, type: 'registry-module' } } } } }, '/data/type'],
      [enableBody(vpc, { enabled: 'yes' }), '/data/attributes/enabled'],
      [enableBody(vpc, { 'version-pin': 1 }), '/data/attributes/version-pin'],
      [
        { data: { type: 'no-code-modules', relationships: { 'registry-module': { data: { id: vpc, type: 'workspaces' } } } } },
        '/data/relationships/registry-module/data/type',
      ],
      [enableBody(vpc, {}, [{ type: 'variable-options', attributes: { 'variable-type': 'string' } }]), '/data/relationships/variable-options/data/0/attributes/variable-name'],
      [enableBody(vpc, {}, [{ type: 'variable-options', attributes: { 'variable-name': 'region' } }]), '/data/relationships/variable-options/data/0/attributes/variable-type'],
    ];
    for (const [body, pointer] of cases) {
      const r = await sim.user.post('/organizations/acme/no-code-modules', body as Record<string, unknown>);
      expect(r.status, pointer).toBe(422);
      expect(r.body.errors[0].title).toBe('invalid attribute');
      expect(r.body.errors[0].source.pointer).toBe(pointer);
    }
    expect((await sim.user.post('/organizations/acme/no-code-modules', enableBody('mod-nope'))).status).toBe(404);
    expect((await sim.user.post('/organizations/other/no-code-modules', enableBody(vpc))).status).toBe(404);
  });

  it('organization tokens get the 404 of an unauthorized caller on enable and update, but can read', async () => {
    const r = await sim.org.post('/organizations/acme/no-code-modules', enableBody(vpc));
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ errors: [{ status: '404', title: 'not found' }] });
    const made = await sim.user.post('/organizations/acme/no-code-modules', enableBody(vpc));
    const id = made.body.data.id as string;
    expect((await sim.org.patch(`/no-code-modules/${id}`, { data: { type: 'no-code-modules', attributes: { enabled: false } } })).status).toBe(404);
    expect((await sim.org.get(`/no-code-modules/${id}`)).status).toBe(200);
    await sim.user.del(`/no-code-modules/${id}`);
  });

  it('update keeps omitted attributes, changes the pin, and replaces variable options without duplicating', async () => {
    const made = await sim.user.post('/organizations/acme/no-code-modules', enableBody(vpc, { 'version-pin': '1.3.0', enabled: true }, [opt('region', ['a']), opt('cidr_block', ['10.0.0.0/16'])]));
    const id = made.body.data.id as string;
    const read = async () => (await sim.user.get(`/no-code-modules/${id}?include=variable-options`)).body;
    const firstOptions = (await read()).included as { id: string; attributes: { 'variable-name': string } }[];
    const regionId = firstOptions.find((o) => o.attributes['variable-name'] === 'region')?.id;

    const onlyPin = await sim.user.patch(`/no-code-modules/${id}`, { data: { type: 'no-code-modules', attributes: { 'version-pin': '1.5.0' } } });
    expect(onlyPin.status).toBe(200);
    expect(onlyPin.body.data.attributes).toEqual({ enabled: true, 'version-pin': '1.5.0' });
    expect(onlyPin.body.data.relationships['variable-options'].data).toHaveLength(2);

    // go-tfe sends only the registry module: the module comes back unchanged (docs/reference/hcp-terraform-api.md §1.2, GT-IT).
    const onlyModule = await sim.user.patch(`/no-code-modules/${id}`, {
      data: { type: 'no-code-modules', relationships: { 'registry-module': { data: { id: vpc, type: 'registry-modules' } } } },
    });
    expect(onlyModule.body.data.attributes).toEqual({ enabled: true, 'version-pin': '1.5.0' });

    // The provider's update: the full list without ids replaces the options of the same names.
    const replaced = await sim.user.patch(`/no-code-modules/${id}`, enableBody(vpc, { enabled: false }, [opt('region', ['b', 'c'])]));
    expect(replaced.status).toBe(200);
    expect(replaced.body.data.attributes.enabled).toBe(false);
    const after = await read();
    expect(after.included).toHaveLength(1);
    expect(after.included[0]).toMatchObject({ id: regionId, attributes: { 'variable-name': 'region', options: ['b', 'c'] } });

    const badPin = await sim.user.patch(`/no-code-modules/${id}`, { data: { type: 'no-code-modules', attributes: { 'version-pin': '0.0.1' } } });
    expect(badPin.status).toBe(422);
    expect(badPin.body.errors[0].detail).toBe(BAD_PIN);
    expect((await sim.user.patch('/no-code-modules/nocode-nope', { data: { type: 'no-code-modules' } })).status).toBe(404);
    await sim.user.del(`/no-code-modules/${id}`);
  });

  it('read: both include spellings, included back-reference type, other includes 400, free-text options', async () => {
    const made = await sim.user.post('/organizations/acme/no-code-modules', enableBody(vpc, { enabled: true }, [opt('region', [])]));
    const id = made.body.data.id as string;
    for (const inc of ['variable_options', 'variable-options']) {
      const r = await sim.user.get(`/no-code-modules/${id}?include=${inc}`);
      expect(r.status).toBe(200);
      expect(r.body.included[0]).toMatchObject({
        type: 'variable-options',
        attributes: { 'variable-name': 'region', 'variable-type': 'string', options: [] },
        relationships: { 'no-code-allowed-module': { data: { id, type: 'no-code-allowed-modules' } } },
      });
    }
    const plain = await sim.user.get(`/no-code-modules/${id}`);
    expect(plain.body.included).toBeUndefined();
    const bad = await sim.user.get(`/no-code-modules/${id}?include=workspaces`);
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].status).toBe('400');
    expect((await sim.user.del(`/no-code-modules/${id}`)).status).toBe(204);
    expect((await sim.user.get(`/no-code-modules/${id}`)).status).toBe(404);
    expect((await sim.user.del(`/no-code-modules/${id}`)).status).toBe(404);
  });

  it('an option with an id replaces that set; disabled modules refuse workspaces (422)', async () => {
    const made = await sim.user.post('/organizations/acme/no-code-modules', enableBody(vpc, { enabled: false }, [opt('region', ['a'])]));
    const id = made.body.data.id as string;
    const optId = made.body.data.relationships['variable-options'].data[0].id as string;
    const r = await sim.user.patch(`/no-code-modules/${id}`, enableBody(vpc, {}, [{ ...opt('cidr_block', ['x']), id: optId }]));
    expect(r.body.data.relationships['variable-options'].data).toEqual([{ id: optId, type: 'variable-options' }]);
    const ws = await sim.user.post(`/no-code-modules/${id}/workspaces`, { data: { type: 'workspaces', attributes: { name: 'disabled-ws' } } });
    expect(ws.status).toBe(422);
    expect(ws.body.errors[0].status).toBe('422');
    await sim.user.del(`/no-code-modules/${id}`);
  });
});
