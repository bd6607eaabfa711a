import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNoCodeWorkspace, enableModule, startSim, type Sim } from './helpers.js';

/* Workspace tags (go-tfe workspace.go AddTags/RemoveTags/ListTags; organization-tags API for the name rules). */
describe('TFE sandbox: workspace tags', () => {
  let sim: Sim;
  let wsId: string;
  const tags = (...names: string[]) => ({ data: names.map((name) => ({ type: 'tags', attributes: { name } })) });
  beforeAll(async () => {
    sim = await startSim({ stepDelayMs: 2000 });
    const ncm = await enableModule(sim.user, 'vpc', { 'version-pin': '1.4.0', enabled: true });
    wsId = await createNoCodeWorkspace(sim.user, ncm, 'tagged');
  });
  afterAll(async () => sim.s.stop());

  it('POST adds (204, twice is harmless), tag-names shows them, GET lists them, DELETE removes', async () => {
    expect((await sim.user.post(`/workspaces/${wsId}/relationships/tags`, tags('converge-state:team-a', 'cost_center-7'))).status).toBe(204);
    expect((await sim.user.post(`/workspaces/${wsId}/relationships/tags`, tags('converge-state:team-a'))).status).toBe(204);
    expect((await sim.user.get(`/workspaces/${wsId}`)).body.data.attributes['tag-names']).toEqual(['converge-state:team-a', 'cost_center-7']);
    const listed = await sim.user.get(`/workspaces/${wsId}/relationships/tags`);
    expect(listed.body.data.map((t: { attributes: { name: string } }) => t.attributes.name)).toEqual(['converge-state:team-a', 'cost_center-7']);
    const page = await sim.user.get('/organizations/acme/workspaces?search[name]=tagged');
    expect(page.body.data[0].attributes['tag-names']).toEqual(['converge-state:team-a', 'cost_center-7']);
    expect((await sim.user.req('DELETE', `/workspaces/${wsId}/relationships/tags`, tags('cost_center-7'))).status).toBe(204);
    expect((await sim.user.get(`/workspaces/${wsId}`)).body.data.attributes['tag-names']).toEqual(['converge-state:team-a']);
  });

  it('a name outside letters, numbers, colons, hyphens and underscores (or over 255), or not starting and ending with a letter or number, is a 422 with a pointer', async () => {
    for (const bad of ['has space', 'x'.repeat(256), '', 'converge-state:team-a-', 'converge-state:team_', '-lead']) {
      const r = await sim.user.post(`/workspaces/${wsId}/relationships/tags`, tags(bad));
      expect(r.status).toBe(422);
      expect(r.body.errors[0].source.pointer).toBe('/data/0/attributes/name');
    }
    expect((await sim.user.post(`/workspaces/${wsId}/relationships/tags`, { data: [] })).status).toBe(422);
    expect((await sim.user.post('/workspaces/ws-missing/relationships/tags', tags('a'))).status).toBe(404);
  });
});
