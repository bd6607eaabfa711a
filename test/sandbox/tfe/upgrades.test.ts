import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNoCodeWorkspace, enableModule, latestRunId, runStatus, startSim, waitFor, waitForStatus, type Sim } from './helpers.js';

describe('TFE sandbox: no-code workspace upgrades (docs/reference/hcp-terraform-api.md §3)', () => {
  let sim: Sim;
  let ncm: string;
  let ws: string;
  const base = () => `/no-code-modules/${ncm}/workspaces/${ws}/upgrade`;
  const attrs = async () => (await sim.user.get(`/workspaces/${ws}`)).body.data.attributes;
  beforeAll(async () => {
    sim = await startSim({ stepDelayMs: 5 });
    ncm = await enableModule(sim.user, 'vpc', { 'version-pin': '1.4.0', enabled: true });
    ws = await createNoCodeWorkspace(sim.user, ncm, 'vpc-up', { auto_apply: true });
    await waitForStatus(sim.user, await latestRunId(sim.user, ws), 'applied');
  });
  afterAll(async () => sim.s.stop());

  it('nothing to upgrade: 200 with only a message', async () => {
    const r = await sim.user.post(base(), { data: { type: 'workspaces' } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ data: { type: 'workspace-upgrade', attributes: { message: 'No upgrade available' } } });
  });

  it('a pin bump shows no-code-upgrade-available; initiate → poll → confirm → applied moves the workspace', async () => {
    await sim.user.patch(`/no-code-modules/${ncm}`, { data: { type: 'no-code-modules', attributes: { 'version-pin': '1.5.0' } } });
    expect(await attrs()).toMatchObject({ 'source-module-id': 'private/acme/vpc/aws/1.4.0', 'no-code-upgrade-available': true });
    const r = await sim.user.post(base(), { data: { type: 'no-code-module-workspace', attributes: { message: 'bump' } } });
    expect(r.status).toBe(200);
    const runId = r.body.data.id as string;
    expect(runId).toMatch(/^run-/);
    expect(r.body.data.type).toBe('workspace-upgrade');
    expect(r.body.data.attributes.status).toBe('pending');
    expect(r.body.data.attributes['plan-url']).toContain(`/runs/${runId}`);
    expect(r.body.data.relationships.workspace.data).toEqual({ id: ws, type: 'workspaces' });
    // The upgrade waits for the confirm even though the workspace auto-applies.
    await waitFor(async () => (await sim.user.get(`${base()}/${runId}`)).body.data.attributes.status === 'cost_estimated', 'the upgrade plan');
    // The upgrade id is a run id: the runs API sees the same run.
    expect((await sim.user.get(`/runs/${runId}`)).body.data.attributes.actions['is-confirmable']).toBe(true);
    expect((await attrs())['source-module-id']).toBe('private/acme/vpc/aws/1.4.0');
    const c = await sim.user.post(`${base()}/${runId}`, { data: { attributes: { message: 'ok' } } });
    expect(c.status).toBe(200);
    expect(c.text).toBe('{ "Workspace update completed" }');
    expect(c.headers.get('content-type')).toBe('application/vnd.api+json');
    await waitForStatus(sim.user, runId, 'applied');
    expect(await attrs()).toMatchObject({ 'source-module-id': 'private/acme/vpc/aws/1.5.0', 'no-code-upgrade-available': false });
    expect((await sim.user.get(`${base()}/${runId}`)).body.data.attributes.status).toBe('applied');
    // Confirming again: the run is not waiting for confirmation.
    const again = await sim.user.post(`${base()}/${runId}`);
    expect(again.status).toBe(409);
    expect(again.body.errors[0].status).toBe('409');
  });

  it('vars given with the upgrade start a run even without a version change, and land in the workspace', async () => {
    const r = await sim.user.post(base(), {
      data: { type: 'workspaces', relationships: { vars: { data: [{ type: 'vars', attributes: { key: 'region', value: 'eu-north-1', category: 'terraform' } }] } } },
    });
    expect(r.body.data.id).toMatch(/^run-/);
    const vars = await sim.user.get(`/workspaces/${ws}/vars`);
    expect(vars.body.data.find((v: { attributes: { key: string } }) => v.attributes.key === 'region').attributes.value).toBe('eu-north-1');
    await waitForStatus(sim.user, r.body.data.id, 'cost_estimated');
    expect((await sim.user.post(`/runs/${r.body.data.id}/actions/discard`)).status).toBe(202);
  });

  it('an errored upgrade run ends errored and leaves the version', async () => {
    await sim.user.patch(`/no-code-modules/${ncm}`, { data: { type: 'no-code-modules', attributes: { 'version-pin': '1.3.0' } } });
    sim.s.control.setNextRunOutcome('vpc-up', 'errored');
    const r = await sim.user.post(base(), { data: { type: 'workspaces' } });
    await waitFor(async () => (await runStatus(sim.user, r.body.data.id)) === 'errored', 'errored');
    expect((await sim.user.post(`${base()}/${r.body.data.id}`)).status).toBe(409);
    expect(await attrs()).toMatchObject({ 'source-module-id': 'private/acme/vpc/aws/1.5.0', 'no-code-upgrade-available': true });
  });

  it('404s: unknown upgrade, a run that is not an upgrade, a workspace of another module; org tokens refused', async () => {
    expect((await sim.user.get(`${base()}/run-nope`)).status).toBe(404);
    const firstRun = (await sim.user.get(`/workspaces/${ws}/runs?page[size]=100`)).body.data.at(-1).id as string;
    expect((await sim.user.get(`${base()}/${firstRun}`)).status).toBe(404);
    const other = await enableModule(sim.user, 'lambda', { enabled: true });
    expect((await sim.user.post(`/no-code-modules/${other}/workspaces/${ws}/upgrade`, { data: { type: 'workspaces' } })).status).toBe(404);
    expect((await sim.user.post(`/no-code-modules/${ncm}/workspaces/ws-nope/upgrade`, { data: { type: 'workspaces' } })).status).toBe(404);
    expect((await sim.org.post(base(), { data: { type: 'workspaces' } })).status).toBe(404);
  });
});
