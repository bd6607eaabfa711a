import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNoCodeWorkspace, enableModule, projectId, startSim, workspaceBody, type Sim } from './helpers.js';

describe('TFE sandbox: workspaces (docs/reference/hcp-terraform-api.md §2, §5)', () => {
  let sim: Sim;
  let ncm: string;
  let pool: string;
  let platform: string;
  beforeAll(async () => {
    sim = await startSim({ stepDelayMs: 2000 });
    ncm = await enableModule(sim.user, 'vpc', { 'version-pin': '1.4.0', enabled: true });
    pool = (await sim.user.get('/organizations/acme/agent-pools')).body.data[0].id as string;
    platform = await projectId(sim.user, 'Platform');
  });
  afterAll(async () => sim.s.stop());

  it('create from a no-code module: 200, the full document with the no-code markers', async () => {
    const r = await sim.user.post(
      `/no-code-modules/${ncm}/workspaces`,
      workspaceBody(
        'vpc-dev',
        { description: 'Dev network', auto_apply: true, 'source-name': 'converge', 'source-url': 'https://example.com' },
        [{ type: 'vars', attributes: { key: 'region', value: 'eu-west-1', description: 'r', category: 'terraform', hcl: false, sensitive: false } }],
        { project: { data: { id: platform, type: 'project' } } },
      ),
    );
    expect(r.status).toBe(200);
    const d = r.body.data;
    expect(d.id).toMatch(/^ws-/);
    expect(d.type).toBe('workspaces');
    expect(d.attributes).toMatchObject({
      name: 'vpc-dev',
      description: 'Dev network',
      'auto-apply': true,
      'execution-mode': 'remote',
      source: 'tfe-module',
      'source-name': 'converge',
      'source-url': 'https://example.com',
      'source-module-id': 'private/acme/vpc/aws/1.4.0',
      'no-code-upgrade-available': false,
    });
    expect(d.relationships.project.data).toEqual({ id: platform, type: 'projects' });
    expect(d.relationships['agent-pool'].data).toBeNull();
    // The first run is queued, but the create answer may still show no current run (docs/reference/hcp-terraform-api.md §2).
    expect(d.relationships['current-run'].data).toBeNull();
    expect(d.relationships['no-code-module-version'].data.id).toMatch(/^nocodever-/);
    expect(d.links).toEqual({ self: '/api/v2/organizations/acme/workspaces/vpc-dev', 'self-html': '/app/acme/workspaces/vpc-dev' });
    const runs = await sim.user.get(`/workspaces/${d.id}/runs`);
    expect(runs.body.data).toHaveLength(1);
    expect(runs.body.data[0].attributes.status).toBe('pending');
    const vars = await sim.user.get(`/workspaces/${d.id}/vars`);
    expect(vars.body.data[0].attributes).toMatchObject({ key: 'region', value: 'eu-west-1', category: 'terraform' });
  });

  it('go-tfe spellings: type no-code-module-workspace and auto-apply; default project when omitted', async () => {
    const r = await sim.team.post(`/no-code-modules/${ncm}/workspaces`, { data: { type: 'no-code-module-workspace', attributes: { name: 'vpc-gotfe', 'auto-apply': true } } });
    expect(r.status).toBe(200);
    expect(r.body.data.attributes['auto-apply']).toBe(true);
    expect(r.body.data.relationships.project.data.id).toBe(await projectId(sim.user, 'Default Project'));
  });

  it('name rules, uniqueness, execution mode and agent pool rules are 422s with pointers', async () => {
    const cases: [Record<string, unknown>, string, string?][] = [
      [workspaceBody('vpc-dev'), '/data/attributes/name', 'Name has already been taken'],
      [workspaceBody('bad name!'), '/data/attributes/name'],
      [{ data: { type: 'workspaces', attributes: {} } }, '/data/attributes/name'],
      [workspaceBody('x1', { 'execution-mode': 'agent' }), '/data/attributes/agent-pool-id'],
      [workspaceBody('x2', { 'execution-mode': 'remote', 'agent-pool-id': pool }), '/data/attributes/agent-pool-id'],
      [workspaceBody('x3', { 'execution-mode': 'agent', 'agent-pool-id': 'apool-nope' }), '/data/attributes/agent-pool-id'],
      [workspaceBody('x4', { 'execution-mode': 'local' }), '/data/attributes/execution-mode'],
      [workspaceBody('x5', { auto_apply: 'yes' }), '/data/attributes/auto_apply'],
      [workspaceBody('x6', {}, undefined, { project: { data: { id: 'prj-nope', type: 'projects' } } }), '/data/relationships/project/data/id'],
      [workspaceBody('x7', {}, [{ type: 'vars', attributes: { key: 'a', category: 'nope' } }]), '/data/relationships/vars/data/0/attributes/category'],
      [
        workspaceBody('x8', {}, [
          { type: 'vars', attributes: { key: 'a', value: '1', category: 'terraform' } },
          { type: 'vars', attributes: { key: 'a', value: '2', category: 'terraform' } },
        ]),
        '/data/relationships/vars/data/1/attributes/key',
        'Key has already been taken',
      ],
      [{ data: { type: 'runs', attributes: { name: 'x9' } } }, '/data/type'],
    ];
    for (const [body, pointer, detail] of cases) {
      const r = await sim.user.post(`/no-code-modules/${ncm}/workspaces`, body);
      expect(r.status, pointer).toBe(422);
      expect(r.body.errors[0]).toMatchObject({ status: '422', title: 'invalid attribute', source: { pointer } });
      if (detail) expect(r.body.errors[0].detail).toBe(detail);
    }
    // Same key in another category is fine.
    const ok = await sim.user.post(
      `/no-code-modules/${ncm}/workspaces`,
      workspaceBody('x10', {}, [
        { type: 'vars', attributes: { key: 'a', value: '1', category: 'terraform' } },
        { type: 'vars', attributes: { key: 'a', value: '2', category: 'env' } },
      ]),
    );
    expect(ok.status).toBe(200);
  });

  it('agent execution: agent-pool-id written as attribute, read as relationship', async () => {
    const r = await sim.user.post(`/no-code-modules/${ncm}/workspaces`, workspaceBody('vpc-agent', { 'execution-mode': 'agent', 'agent-pool-id': pool }));
    expect(r.status).toBe(200);
    expect(r.body.data.attributes['execution-mode']).toBe('agent');
    expect(r.body.data.relationships['agent-pool'].data).toEqual({ id: pool, type: 'agent-pools' });
    expect(r.body.data.attributes['setting-overwrites']).toEqual({ 'execution-mode': true, 'agent-pool': true });
  });

  it('organization tokens cannot create no-code workspaces (404); unknown module 404', async () => {
    expect((await sim.org.post(`/no-code-modules/${ncm}/workspaces`, workspaceBody('org-ws'))).status).toBe(404);
    expect((await sim.user.post('/no-code-modules/nocode-nope/workspaces', workspaceBody('nope-ws'))).status).toBe(404);
    expect((await sim.user.get('/organizations/acme/workspaces/org-ws')).status).toBe(404);
  });

  it('show by name and by id behave identically; include=current_run,project; bad include 400', async () => {
    const byName = await sim.user.get('/organizations/acme/workspaces/vpc-dev');
    const byId = await sim.org.get(`/workspaces/${byName.body.data.id}`);
    expect(byId.body.data).toEqual(byName.body.data);
    const inc = await sim.user.get('/organizations/acme/workspaces/vpc-dev?include=project');
    expect(inc.body.included[0]).toMatchObject({ type: 'projects', attributes: { name: 'Platform' } });
    expect((await sim.user.get('/organizations/acme/workspaces/vpc-dev?include=bogus')).status).toBe(400);
    expect((await sim.user.get('/workspaces/ws-nope')).status).toBe(404);
  });

  it('plain workspace create answers 201 and has no no-code attributes', async () => {
    const r = await sim.user.post('/organizations/acme/workspaces', { data: { type: 'workspaces', attributes: { name: 'plain', 'execution-mode': 'local' } } });
    expect(r.status).toBe(201);
    expect(r.body.data.attributes.source).toBe('tfe-api');
    expect(r.body.data.attributes).not.toHaveProperty('source-module-id');
    expect(r.body.data.attributes).not.toHaveProperty('no-code-upgrade-available');
    expect(r.body.data.relationships).not.toHaveProperty('no-code-module-version');
    expect((await sim.user.get(`/workspaces/${r.body.data.id}/runs`)).body.data).toEqual([]);
  });

  it('list: paginated, fuzzy search[name], wildcard, filter[project][id]', async () => {
    const all = await sim.user.get('/organizations/acme/workspaces?page[size]=100');
    const names = all.body.data.map((w: { attributes: { name: string } }) => w.attributes.name);
    expect(names).toEqual([...names].sort());
    expect(all.body.meta.pagination['total-count']).toBe(names.length);
    const page = await sim.user.get('/organizations/acme/workspaces');
    // Default page size 20, as the real API (docs/reference/hcp-terraform-api.md §8).
    expect(page.body.data).toHaveLength(Math.min(20, names.length));
    expect(page.body.meta.pagination['page-size']).toBe(20);
    expect((await sim.user.get('/organizations/acme/workspaces?page[size]=101')).body.meta.pagination['page-size']).toBe(100);
    const search = await sim.user.get('/organizations/acme/workspaces?search[name]=VPC-D');
    expect(search.body.data.map((w: { attributes: { name: string } }) => w.attributes.name)).toEqual(['vpc-dev']);
    const wild = await sim.user.get('/organizations/acme/workspaces?search[wildcard-name]=*-agent');
    expect(wild.body.data.map((w: { attributes: { name: string } }) => w.attributes.name)).toEqual(['vpc-agent']);
    const proj = await sim.user.get(`/organizations/acme/workspaces?filter[project][id]=${platform}`);
    expect(proj.body.data.map((w: { attributes: { name: string } }) => w.attributes.name)).toEqual(['vpc-dev']);
  });

  it('update by id and by name: omitted fields keep values; execution mode and pool rules apply', async () => {
    const id = (await sim.user.get('/organizations/acme/workspaces/vpc-dev')).body.data.id as string;
    const a = await sim.user.patch(`/workspaces/${id}`, { data: { type: 'workspaces', attributes: { description: 'changed', 'auto-apply': false } } });
    expect(a.status).toBe(200);
    expect(a.body.data.attributes).toMatchObject({ description: 'changed', 'auto-apply': false, 'source-name': 'converge', 'execution-mode': 'remote' });
    const b = await sim.user.patch('/organizations/acme/workspaces/vpc-dev', {
      data: { type: 'workspaces', attributes: { 'execution-mode': 'agent', 'agent-pool-id': pool, 'source-name': 'other', 'source-url': 'https://x.example' } },
    });
    expect(b.status).toBe(200);
    expect(b.body.data.relationships['agent-pool'].data.id).toBe(pool);
    // source-name / source-url are create-only: the PATCH succeeds and drops them (docs/reference/hcp-terraform-api.md §5).
    expect(b.body.data.attributes).toMatchObject({ 'source-name': 'converge', 'source-url': 'https://example.com' });
    const back = await sim.user.patch(`/workspaces/${id}`, { data: { type: 'workspaces', attributes: { 'execution-mode': 'remote' } } });
    expect(back.body.data.relationships['agent-pool'].data).toBeNull();
    const bad = await sim.user.patch(`/workspaces/${id}`, { data: { type: 'workspaces', attributes: { name: 'vpc-agent' } } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].detail).toBe('Name has already been taken');
    const rename = await sim.user.patch(`/workspaces/${id}`, { data: { type: 'workspaces', attributes: { name: 'vpc-dev2' } } });
    expect(rename.body.data.links.self).toBe('/api/v2/organizations/acme/workspaces/vpc-dev2');
    expect((await sim.user.get('/organizations/acme/workspaces/vpc-dev')).status).toBe(404);
    await sim.user.patch(`/workspaces/${id}`, { data: { type: 'workspaces', attributes: { name: 'vpc-dev' } } });
  });

  it('safe delete: 409 while managing resources or locked by a run, 204 after; force delete 204', async () => {
    const id = await createNoCodeWorkspace(sim.user, ncm, 'vpc-del');
    // The first run holds the workspace (step delay is long here).
    await new Promise((r) => setTimeout(r, 50));
    sim.s.control.setManagedResources('vpc-del', 3);
    const r = await sim.user.post(`/workspaces/${id}/actions/safe-delete`);
    expect(r.status).toBe(409);
    expect(r.body.errors[0]).toMatchObject({ status: '409', detail: 'workspace cannot be safely deleted because it is still managing resources' });
    sim.s.control.setManagedResources('vpc-del', 0);
    const locked = await sim.user.post('/organizations/acme/workspaces/vpc-del/actions/safe-delete');
    expect(locked.status).toBe(409);
    expect(locked.body.errors[0].detail).toMatch(/locked/);
    expect((await sim.user.del(`/workspaces/${id}`)).status).toBe(204);
    expect((await sim.user.get(`/workspaces/${id}`)).status).toBe(404);
    const plain = await sim.user.post('/organizations/acme/workspaces', { data: { type: 'workspaces', attributes: { name: 'plain-del' } } });
    expect((await sim.user.post(`/workspaces/${plain.body.data.id}/actions/safe-delete`)).status).toBe(204);
    const other = await sim.user.post('/organizations/acme/workspaces', { data: { type: 'workspaces', attributes: { name: 'plain-del2' } } });
    expect(other.status).toBe(201);
    expect((await sim.user.del('/organizations/acme/workspaces/plain-del2')).status).toBe(204);
    expect((await sim.user.del('/organizations/acme/workspaces/plain-del2')).status).toBe(404);
  });
});
