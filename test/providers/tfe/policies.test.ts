import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChanges } from '../../../src/plan/types.js';
import type { AnyDesired } from '../../../src/model/desired.js';
import { TfeWorld, doc, lambdaModule } from './harness.js';

/*
 * HCP Terraform cases not in the main story: project by prj- id, agent pool of the organization,
 * variable category/hcl changes, a first run that waits for a person, the orphan deletion
 * policy, and progress events with elapsed time. Against the TFE simulator over loopback.
 */

type ListBody = { data: { id: string; attributes: Record<string, unknown>; relationships?: Record<string, { data: { id: string } | null }> }[] };

describe('TFE provider: projects, agent pools, variables, first-run policy, orphan', () => {
  let w: TfeWorld;
  beforeAll(async () => {
    w = await TfeWorld.start();
    expect((await w.converge([lambdaModule()])).counts.failed).toBe(0);
  });
  afterAll(async () => w?.close());

  // Workspaces of earlier tests stay in the manifest, or an apply would delete them.
  const kept: AnyDesired[] = [];
  const keepLast = (objects: AnyDesired[]) => kept.push(objects.at(-1) as AnyDesired);
  const list = async (path: string) => (await w.get(path)).body as unknown as ListBody;
  const workspace = async (name: string) => (await w.get(`/organizations/acme/workspaces/${name}`)).body.data as unknown as ListBody['data'][number];

  it('a project named by its prj- id is resolved through the API; the re-plan is clean', async () => {
    const platform = (await list('/organizations/acme/projects?filter[names]=Platform')).data[0]?.id ?? '';
    expect(platform).toMatch(/^prj-/);
    const objects = [lambdaModule(), ...kept, doc('NoCodeWorkspace', 'by-id', { module: 'lambda', project: platform, autoApply: true })];
    const run = await w.plan(objects);
    expect(run.plan.diagnostics).toEqual([]);
    expect(run.plan.changes.find((c) => c.name === 'by-id')?.fields.find((f) => f.path === 'project')?.after).toBe('Platform');
    expect((await w.apply(run)).counts.failed).toBe(0);
    expect((await workspace('by-id')).relationships?.project?.data?.id).toBe(platform);
    expect(hasChanges((await w.plan(objects)).plan)).toBe(false);
    keepLast(objects);
  });

  it('an agent pool of the organization is accepted and read back through the relationship', async () => {
    const pool = (await list('/organizations/acme/agent-pools')).data[0]?.id ?? '';
    expect(pool).toMatch(/^apool-/);
    const objects = [lambdaModule(), ...kept, doc('NoCodeWorkspace', 'agent-ws', { module: 'lambda', executionMode: 'agent', agentPoolId: pool, autoApply: true })];
    const run = await w.plan(objects);
    expect(run.plan.diagnostics).toEqual([]);
    expect((await w.apply(run)).counts.failed).toBe(0);
    const ws = await workspace('agent-ws');
    expect(ws.attributes['execution-mode']).toBe('agent');
    expect(ws.relationships?.['agent-pool']?.data?.id).toBe(pool);
    expect(hasChanges((await w.plan(objects)).plan)).toBe(false);
    // A pool id the organization does not have is a load error at /spec/agentPoolId, before any write.
    const writes = w.sim.log.writes('tfe').length;
    const bad = await w.plan([lambdaModule(), ...kept, doc('NoCodeWorkspace', 'agent-ws', { module: 'lambda', executionMode: 'agent', agentPoolId: 'apool-NotInThisOrg01', autoApply: true })]);
    expect(bad.plan.diagnostics.map((d) => [d.severity, d.code])).toEqual([['error', 'tfe.workspace.agent-pool-unknown']]);
    expect(w.sim.log.writes('tfe')).toHaveLength(writes);
    keepLast(objects);
  });

  it('variables: an hcl change updates in place; a category change deletes and creates', async () => {
    const ws = (variables: unknown[]) => [lambdaModule(), ...kept, doc('NoCodeWorkspace', 'vars-ws', { module: 'lambda', autoApply: true, variables })];
    expect((await w.converge(ws([{ key: 'tags', value: '{a = 1}' }]))).counts.failed).toBe(0);
    const hcl = await w.plan(ws([{ key: 'tags', value: '{a = 1}', hcl: true }]));
    expect(hcl.plan.changes.find((c) => c.name === 'vars-ws')?.fields.map((f) => f.path)).toEqual(['variables.terraform.tags.hcl']);
    const patches = w.count('PATCH', /\/vars\//);
    expect((await w.apply(hcl)).counts.failed).toBe(0);
    expect(w.count('PATCH', /\/vars\//) - patches).toBe(1);
    const id = w.state.doc.records.find((r) => r.name === 'vars-ws')?.id ?? '';
    const read = async () => (await list(`/workspaces/${id}/vars`)).data.map((v) => [v.attributes.key, v.attributes.category, v.attributes.hcl]);
    expect(await read()).toEqual([['tags', 'terraform', true]]);

    const env = await w.plan(ws([{ key: 'tags', value: '{a = 1}', category: 'env' }]));
    const paths = env.plan.changes.find((c) => c.name === 'vars-ws')?.fields.map((f) => f.path);
    expect(paths).toEqual(['variables.env.tags', 'variables.terraform.tags']);
    const before = { post: w.count('POST', /\/vars$/), del: w.count('DELETE', /\/vars\//) };
    expect((await w.apply(env)).counts.failed).toBe(0);
    expect([w.count('POST', /\/vars$/) - before.post, w.count('DELETE', /\/vars\//) - before.del]).toEqual([1, 1]);
    expect(await read()).toEqual([['tags', 'env', false]]);
    expect(hasChanges((await w.plan(ws([{ key: 'tags', value: '{a = 1}', category: 'env' }]))).plan)).toBe(false);
    keepLast(ws([{ key: 'tags', value: '{a = 1}', category: 'env' }]));
  });

  it('a first run with auto-apply off and confirm manual is reported as awaiting a person; a later apply confirms that run', async () => {
    const spec = (confirm: 'manual' | 'auto') => [lambdaModule(), ...kept, doc('NoCodeWorkspace', 'first-manual', { module: 'lambda', autoApply: false, upgrade: { confirm } })];
    const a = await w.converge(spec('manual'));
    const o = a.outcomes.find((x) => x.name === 'first-manual');
    expect(o?.status).toBe('awaiting-confirmation');
    expect(o?.detail).toMatchObject({ code: 'awaiting-run', after: { step: 'created' } });
    expect(o?.runUrl).toMatch(new RegExp(`${w.sim.url}/app/acme/workspaces/first-manual/runs/run-`));
    const inFlight = w.state.doc.records.find((r) => r.name === 'first-manual')?.inFlight;
    expect(inFlight).toMatchObject({ purpose: 'provision', phase: 'planned' });
    const run = await w.get(`/runs/${inFlight?.runId}`);
    expect(run.body.data.attributes.status).toBe('cost_estimated');

    // The plan says a run is being resumed; the apply confirms that run (no new run) and follows it.
    const plan = await w.plan(spec('auto'));
    expect(plan.plan.changes.find((c) => c.name === 'first-manual')?.action).toBe('update');
    const runsBefore = w.count('POST', /^\/api\/v2\/runs$/);
    const b = await w.apply(plan);
    expect(b.outcomes.find((x) => x.name === 'first-manual')?.status).toBe('succeeded');
    expect((await w.get(`/runs/${inFlight?.runId}`)).body.data.attributes.status).toBe('applied');
    expect(w.count('POST', /^\/api\/v2\/runs$/)).toBe(runsBefore);
    expect(w.state.doc.records.find((r) => r.name === 'first-manual')?.inFlight).toBeUndefined();
    // Progress: each phase of that run, with the time elapsed.
    const phases = w.reporter.events.filter((e) => e.code === 'tfe.run.phase' && e.data?.runId === inFlight?.runId);
    expect(phases.map((e) => e.data?.phase)).toEqual(expect.arrayContaining(['cost_estimated', 'applied']));
    expect(phases.every((e) => typeof e.data?.elapsedMs === 'number')).toBe(true);
    expect(w.reporter.events.some((e) => e.code === 'tfe.run.resume' && e.data?.runId === inFlight?.runId)).toBe(true);
    keepLast(spec('auto'));
  });

  it('deletion orphan: converge forgets the workspace and sends no delete', async () => {
    const objects = [lambdaModule(), ...kept, doc('NoCodeWorkspace', 'orphan-ws', { module: 'lambda', autoApply: true, deletion: 'orphan' })];
    expect((await w.converge(objects)).counts.failed).toBe(0);
    const id = w.state.doc.records.find((r) => r.name === 'orphan-ws')?.id ?? '';
    const run = await w.plan([lambdaModule(), ...kept]);
    const del = run.plan.changes.find((c) => c.name === 'orphan-ws');
    expect(del).toMatchObject({ action: 'delete', deletion: 'orphan' });
    expect(del?.reasons).toEqual([{ code: 'deletion-policy', policy: 'orphan' }]);
    const deletes = [w.count('DELETE', /\/workspaces\//), w.count('POST', /safe-delete$/)];
    expect((await w.apply(run)).counts.failed).toBe(0);
    expect([w.count('DELETE', /\/workspaces\//), w.count('POST', /safe-delete$/)]).toEqual(deletes);
    expect(w.state.doc.records.some((r) => r.name === 'orphan-ws')).toBe(false);
    expect((await w.get(`/workspaces/${id}`)).status).toBe(200);
  });
});
