import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/async/manual-clock.js';
import { DEFAULT_TFE_SEED, startTfeSimulator } from '../../../src/sandbox/tfe/index.js';
import { client, enableModule, moduleId, startSim, type Sim } from './helpers.js';

describe('TFE sandbox: projects, agent pools, registry modules, pagination (docs/reference/hcp-terraform-api.md §4, §7, §8)', () => {
  let sim: Sim;
  beforeAll(async () => {
    sim = await startSim({ defaultPageSize: 1 });
  });
  afterAll(async () => sim.s.stop());

  it('projects: filter[names] is exact and case-insensitive; q searches; show by id', async () => {
    const exact = await sim.user.get('/organizations/acme/projects?filter[names]=platform');
    expect(exact.body.data.map((p: { attributes: { name: string } }) => p.attributes.name)).toEqual(['Platform']);
    expect((await sim.user.get('/organizations/acme/projects?filter[names]=plat')).body.data).toEqual([]);
    // q is ignored when filter[names] is present.
    expect((await sim.user.get('/organizations/acme/projects?filter[names]=Platform&q=default')).body.data).toHaveLength(1);
    const q = await sim.user.get('/organizations/acme/projects?q=DEFAULT');
    expect(q.body.data[0].attributes.name).toBe('Default Project');
    const id = q.body.data[0].id as string;
    expect(id).toMatch(/^prj-[A-Za-z0-9]{16}$/);
    const show = await sim.user.get(`/projects/${id}`);
    expect(show.body.data).toMatchObject({ id, type: 'projects', attributes: { name: 'Default Project' } });
    expect((await sim.user.get('/projects/prj-nope')).status).toBe(404);
  });

  it('agent pools: list with q, show by id', async () => {
    const r = await sim.user.get('/organizations/acme/agent-pools?q=sandbox');
    expect(r.body.data).toHaveLength(1);
    expect(r.body.data[0]).toMatchObject({ type: 'agent-pools', attributes: { name: 'sandbox-agents', 'organization-scoped': true } });
    expect(r.body.data[0].id).toMatch(/^apool-/);
    expect((await sim.user.get(`/agent-pools/${r.body.data[0].id}`)).status).toBe(200);
    expect((await sim.user.get('/organizations/acme/agent-pools?q=zzz')).body.data).toEqual([]);
  });

  it('pagination: default page size, links with encoded brackets, meta, max 100, out of range', async () => {
    const first = await sim.user.get('/organizations/acme/projects');
    expect(first.body.data).toHaveLength(1);
    expect(first.body.meta.pagination).toEqual({ 'current-page': 1, 'page-size': 1, 'prev-page': null, 'next-page': 2, 'total-pages': 2, 'total-count': 2 });
    const next = first.body.links.next as string;
    expect(next).toBe(`${sim.s.url}/api/v2/organizations/acme/projects?page%5Bnumber%5D=2&page%5Bsize%5D=1`);
    expect(first.body.links.prev).toBeNull();
    const second = await sim.user.get(next);
    expect(second.body.data[0].attributes.name).toBe('Platform');
    expect(second.body.meta.pagination['next-page']).toBeNull();
    expect(second.body.links.prev).toContain('page%5Bnumber%5D=1');
    const big = await sim.user.get('/organizations/acme/projects?page[size]=500');
    expect(big.body.meta.pagination['page-size']).toBe(100);
    expect(big.body.data).toHaveLength(2);
    const out = await sim.user.get('/organizations/acme/projects?page[number]=9');
    expect(out.status).toBe(200);
    expect(out.body.data).toEqual([]);
    expect(out.body.meta.pagination['current-page']).toBe(9);
  });

  it('registry modules: list, filters, include=no-code-modules with 0 or 1 entry, bad include 400', async () => {
    const all = await sim.user.get('/organizations/acme/registry-modules?page[size]=10');
    expect(all.body.data.map((m: { attributes: { name: string } }) => m.attributes.name).sort()).toEqual(['lambda', 'vpc']);
    const vpc = all.body.data.find((m: { attributes: { name: string } }) => m.attributes.name === 'vpc');
    expect(vpc.id).toMatch(/^mod-/);
    expect(vpc.attributes).toMatchObject({
      namespace: 'acme',
      provider: 'aws',
      'registry-name': 'private',
      status: 'setup_complete',
      'no-code': false,
      'version-statuses': [
        { version: '1.3.0', status: 'ok' },
        { version: '1.4.0', status: 'ok' },
        { version: '1.5.0', status: 'ok' },
      ],
    });
    expect((await sim.user.get('/organizations/acme/registry-modules?q=lamb')).body.data).toHaveLength(1);
    expect((await sim.user.get('/organizations/acme/registry-modules?filter[provider]=gcp')).body.data).toEqual([]);
    const ncm = await enableModule(sim.user, 'vpc');
    const inc = await sim.user.get('/organizations/acme/registry-modules?include=no-code-modules&page[size]=10');
    const vpc2 = inc.body.data.find((m: { id: string }) => m.id === vpc.id);
    expect(vpc2.attributes['no-code']).toBe(true);
    expect(vpc2.relationships['no-code-modules'].data).toEqual([{ id: ncm, type: 'no-code-modules' }]);
    const lambda = inc.body.data.find((m: { id: string }) => m.id !== vpc.id);
    expect(lambda.relationships['no-code-modules'].data).toEqual([]);
    expect(inc.body.included.map((x: { id: string }) => x.id)).toEqual([ncm]);
    const bad = await sim.user.get('/organizations/acme/registry-modules?include=workspaces');
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].status).toBe('400');
  });

  it('registry modules: show by private path and by id; version read; 404s', async () => {
    const byPath = await sim.user.get('/organizations/acme/registry-modules/private/acme/lambda/aws');
    expect(byPath.status).toBe(200);
    expect(byPath.body.data.links.self).toBe('/api/v2/organizations/acme/registry-modules/private/acme/lambda/aws');
    const id = byPath.body.data.id as string;
    expect((await sim.user.get(`/registry-modules/${id}`)).body.data.attributes.name).toBe('lambda');
    expect((await sim.user.get('/registry-modules/mod-nope')).status).toBe(404);
    expect((await sim.user.get('/organizations/acme/registry-modules/private/acme/nope/aws')).status).toBe(404);
    expect((await sim.user.get('/organizations/acme/registry-modules/public/hashicorp/lambda/aws')).status).toBe(404);
    const v = await sim.user.get('/organizations/acme/registry-modules/private/acme/lambda/aws/version?module_version=1.1.0');
    expect(v.status).toBe(200);
    expect(v.body.data).toMatchObject({ type: 'registry-module-versions', attributes: { version: '1.1.0', status: 'ok' } });
    expect(v.body.data.id).toMatch(/^modver-/);
    expect((await sim.user.get('/organizations/acme/registry-modules/private/acme/lambda/aws/version?module_version=9.9.9')).status).toBe(404);
  });

  it('a published version is pending first, then ingested one step later', async () => {
    // Its own simulator on a manual clock: the step passes only when the test says so, however loaded the machine.
    const clock = new ManualClock();
    const own = await startSim({ defaultPageSize: 1, stepDelayMs: 300, clock });
    try {
      own.s.control.publishModuleVersion('acme', 'lambda', 'aws', '1.2.0');
      const path = '/organizations/acme/registry-modules/private/acme/lambda/aws';
      const before = await own.user.get(path);
      expect(before.body.data.attributes['version-statuses']).toContainEqual({ version: '1.2.0', status: 'pending' });
      expect((await own.user.get(`${path}/version?module_version=1.2.0`)).status).toBe(404);
      await clock.advance(299);
      expect((await own.user.get(`${path}/version?module_version=1.2.0`)).status).toBe(404);
      await clock.advance(1);
      expect((await own.user.get(`${path}/version?module_version=1.2.0`)).status).toBe(200);
    } finally {
      await own.s.stop();
    }
  });

  it('module variables of a no-code module version list the inputs with their options', async () => {
    const id = await moduleId(sim.user, 'lambda');
    const r = await sim.user.post('/organizations/acme/no-code-modules', {
      data: {
        type: 'no-code-modules',
        attributes: { enabled: true, 'version-pin': '1.0.0' },
        relationships: {
          'registry-module': { data: { id, type: 'registry-modules' } },
          'variable-options': { data: [{ type: 'variable-options', attributes: { 'variable-name': 'runtime', 'variable-type': 'string', options: ['nodejs20.x'] } }] },
        },
      },
    });
    const vars = await sim.user.get(`/no-code-modules/${r.body.data.id}/versions/1.0.0/module-variables`);
    expect(vars.status).toBe(200);
    expect(vars.body.data.map((v: { attributes: { name: string } }) => v.attributes.name)).toEqual(['function_name', 'runtime', 'memory']);
    expect(vars.body.data[1]).toMatchObject({ type: 'registry-module-variables', attributes: { type: 'string', options: ['nodejs20.x'], 'has-global': false } });
    expect(vars.body.data[2].attributes.type).toBe('number');
    expect((await sim.user.get(`/no-code-modules/${r.body.data.id}/versions/7.0.0/module-variables`)).status).toBe(404);
  });
});

describe('TFE sandbox: seeds', () => {
  it('the default seed is the shared names of the team contract', () => {
    expect(DEFAULT_TFE_SEED.organization).toBe('acme');
    expect(DEFAULT_TFE_SEED.tokens).toEqual({ user: 'Qm7xK2pW9dLz4T.atlasv1.Hc8Vn3Rk6Lp1Zt5Qm9Wx2Bd7Fy4Ga0Js', team: 'Tn4bR8cY1eMq6V.atlasv1.Jw3Kx9Pd5Lr2Zs8Nv6Qb1Ht4Gm7Fc0Xy', organization: 'Og2hS5jU8kWn3X.atlasv1.Pe6Ry1Tu4Iv7Ob9Nc3Md5Lf8Kg2Jh0Wq' });
    const vpc = DEFAULT_TFE_SEED.registryModules.find((m) => m.name === 'vpc');
    expect(vpc?.inputs.find((i) => i.name === 'db_password')?.sensitive).toBe(true);
  });

  it('a seed file with the same shape replaces the world; a broken one says what is wrong', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tfe-seed-'));
    const file = join(dir, 'seed.json');
    await writeFile(file, JSON.stringify({ ...DEFAULT_TFE_SEED, organization: 'globex', tokens: { user: 'u', team: 't', organization: 'o' } }));
    const s = await startTfeSimulator({ port: 0, seedFile: file, rateLimit: false });
    try {
      expect(s.organization).toBe('globex');
      expect((await client(s.url, 'u').get('/organizations/globex')).status).toBe(200);
      expect((await client(s.url, 'u').get('/organizations/acme')).status).toBe(404);
    } finally {
      await s.stop();
    }
    await writeFile(file, JSON.stringify({ organization: 'x' }));
    await expect(startTfeSimulator({ port: 0, seedFile: file })).rejects.toThrow(/tokens/);
  });
});
