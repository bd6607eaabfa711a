import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adoptions, hasChanges } from '../../../src/plan/types.js';
import { FAST, SECRET, TfeWorld, doc, lambdaModule, vpcDev, vpcModule } from './harness.js';

/*
 * The HCP Terraform provider against the TFE simulator over loopback, through the real engine
 * (createPlan / applyPlan) and a memory state. One story, in order, like a user's week.
 */

const UPGRADE_INITIATE = /^\/api\/v2\/no-code-modules\/[^/]+\/workspaces\/[^/]+\/upgrade$/;

describe('TFE provider against the simulator', () => {
  let w: TfeWorld;
  beforeAll(async () => {
    w = await TfeWorld.start();
  });
  afterAll(async () => w?.close());

  it('plans a module without a pin at the latest version, with a note, sending no writes', async () => {
    const run = await w.plan([lambdaModule()]);
    const c = run.plan.changes.find((x) => x.name === 'lambda');
    expect(c?.action).toBe('create');
    expect(c?.fields.find((f) => f.path === 'versionPin')?.after).toBe('1.1.0');
    expect(c?.notes).toContainEqual({ code: 'version-unpinned', latest: '1.1.0' });
    expect(w.sim.log.writes('tfe')).toEqual([]);
    // One paginated registry list, never one read per module.
    expect(w.count('GET', /\/registry-modules$/)).toBeGreaterThanOrEqual(1);
    expect(w.count('GET', /\/registry-modules\/private\//)).toBe(0);
  });

  it('enables the module pinned to the latest version; a re-plan is clean', async () => {
    const result = await w.converge([lambdaModule()]);
    expect(result.counts).toMatchObject({ succeeded: 1, failed: 0 });
    const id = w.state.doc.records.find((r) => r.name === 'lambda')?.id ?? '';
    expect(result.outcomes[0]?.detail).toMatchObject({ code: 'module-enabled', version: '1.1.0', id });
    const read = await w.get(`/no-code-modules/${id}`);
    expect(read.body.data.attributes['version-pin']).toBe('1.1.0');
    expect(read.body.data.attributes.enabled).toBe(true);
    expect(hasChanges((await w.plan([lambdaModule()])).plan)).toBe(false);
  });

  it('creates a workspace with a sensitive variable, follows its first run; the value never shows; desired equals live after', async () => {
    const objects = [lambdaModule(), vpcModule('1.4.0'), vpcDev()];
    const run = await w.plan(objects);
    const ws = run.plan.changes.find((c) => c.name === 'vpc-dev');
    expect(ws?.action).toBe('create');
    expect(ws?.fields.find((f) => f.path === 'variables.terraform.db_password.value')).toMatchObject({ sensitive: true, after: '(sensitive)' });
    const result = await w.apply(run);
    expect(result.outcomes.map((o) => [o.name, o.status])).toEqual([
      ['vpc', 'succeeded'],
      ['vpc-dev', 'succeeded'],
    ]);
    const attrs = (await w.get('/organizations/acme/workspaces/vpc-dev')).body.data.attributes;
    expect(attrs['source-module-id']).toBe('private/acme/vpc/aws/1.4.0');
    // The first run was found and followed to applied.
    const phases = w.reporter.events.filter((e) => e.code === 'tfe.run.phase' && e.data?.workspace === 'vpc-dev').map((e) => e.data?.phase);
    expect(phases).toContain('applied');
    expect(w.count('POST', /\/runs\/[^/]+\/actions\/apply$/)).toBe(1);
    const everything = JSON.stringify({ plan: run.plan, events: w.reporter.events, state: w.state.doc, outcomes: result.outcomes });
    expect(everything).not.toContain(SECRET);
    const again = await w.plan(objects);
    expect(again.plan.changes.filter((c) => c.action !== 'no-op')).toEqual([]);
    expect(again.plan.drift).toEqual([]);
  });

  it('an existing workspace under the manifest name is adopted, never duplicated', async () => {
    const objects = [lambdaModule(), vpcModule('1.4.0'), vpcDev()];
    const saved = structuredClone(w.state.doc);
    w.state.doc = { ...w.state.doc, records: w.state.doc.records.filter((r) => r.name !== 'vpc-dev') };
    const run = await w.plan(objects);
    const c = run.plan.changes.find((x) => x.name === 'vpc-dev');
    expect(c?.action).toBe('update');
    expect(c?.notes).toContainEqual({ code: 'adopted', address: 'NoCodeWorkspace/vpc-dev' });
    w.state.doc = saved;
  });

  it('modules that match the manifests but lost their records are no-op adoptions; apply records them (module ids) without a write', async () => {
    const objects = [lambdaModule(), vpcModule('1.4.0'), vpcDev()];
    const before = new Map(w.state.doc.records.map((r) => [r.name, r]));
    w.state.doc = { ...w.state.doc, records: w.state.doc.records.filter((r) => r.kind !== 'NoCodeModule') };
    const run = await w.plan(objects);
    expect(hasChanges(run.plan)).toBe(false);
    expect(adoptions(run.plan).map((c) => c.name)).toEqual(['lambda', 'vpc']);
    w.sim.log.clear();
    const result = await w.apply(run);
    expect(w.sim.log.writes('tfe')).toEqual([]);
    expect(result.adopted?.map((a) => a.name)).toEqual(['lambda', 'vpc']);
    for (const name of ['lambda', 'vpc']) {
      const r = w.state.doc.records.find((x) => x.name === name);
      expect(r?.id, name).toBe(before.get(name)?.id);
      expect(r?.extra.registryModuleId, name).toMatch(/\S/);
      expect(r?.extra.registryModuleId, name).toBe(before.get(name)?.extra.registryModuleId);
    }
    const again = await w.plan(objects);
    expect(hasChanges(again.plan)).toBe(false);
    expect(adoptions(again.plan)).toEqual([]);
  });

  it('a pin bump plans a module update and a workspace upgrade; apply drives it to applied', async () => {
    const objects = [lambdaModule(), vpcModule('1.5.0'), vpcDev()];
    const run = await w.plan(objects);
    expect(run.plan.changes.find((c) => c.name === 'vpc')?.action).toBe('update');
    const up = run.plan.changes.find((c) => c.name === 'vpc-dev');
    expect(up?.action).toBe('upgrade');
    expect(up?.upgrade).toEqual({ from: '1.4.0', to: '1.5.0' });
    const before = w.count('POST', UPGRADE_INITIATE);
    const result = await w.apply(run);
    expect(result.counts.failed).toBe(0);
    expect(w.count('POST', UPGRADE_INITIATE)).toBe(before + 1);
    // What happened is data (views word it): the run applied, the settings and variables were already right.
    expect(result.outcomes.find((x) => x.name === 'vpc-dev')?.detail).toMatchObject({ code: 'upgrade-ended', written: { settings: false, variableWrites: 0 }, ended: { run: 'applied' } });
    expect((await w.get('/organizations/acme/workspaces/vpc-dev')).body.data.attributes['source-module-id']).toBe('private/acme/vpc/aws/1.5.0');
    expect(w.state.doc.records.find((r) => r.name === 'vpc-dev')?.inFlight).toBeUndefined();
    expect(hasChanges((await w.plan(objects)).plan)).toBe(false);
  });

  it('an errored upgrade fails that workspace naming the run, its URL and its state', async () => {
    w.sim.control.setNextRunOutcome('vpc-dev', 'errored');
    const result = await w.converge([lambdaModule(), vpcModule('1.3.0'), vpcDev()]);
    const o = result.outcomes.find((x) => x.name === 'vpc-dev');
    expect(o?.status).toBe('failed');
    expect(o?.error?.code).toBe('tfe.run.failed');
    expect(o?.message).toMatch(/run-[A-Za-z0-9]+/);
    expect(o?.message).toContain('errored');
    expect(o?.runUrl).toMatch(new RegExp(`^${w.sim.url}/app/acme/workspaces/vpc-dev/runs/run-`));
    expect(w.state.doc.records.find((r) => r.name === 'vpc-dev')?.inFlight).toBeUndefined();
  });

  it('manual confirm stops after the plan; a later apply with auto confirms that same run', async () => {
    const manual = [lambdaModule(), vpcModule('1.3.0'), vpcDev({ upgrade: { confirm: 'manual' } })];
    const a = await w.converge(manual);
    const o = a.outcomes.find((x) => x.name === 'vpc-dev');
    expect(o?.status).toBe('awaiting-confirmation');
    expect(o?.runUrl).toMatch(/\/runs\/run-/);
    const inFlight = w.state.doc.records.find((r) => r.name === 'vpc-dev')?.inFlight;
    expect(o?.detail).toEqual({ code: 'awaiting-upgrade-run', runId: inFlight?.runId, url: o?.runUrl });
    expect(inFlight).toMatchObject({ purpose: 'upgrade', phase: 'planned' });
    expect((await w.get('/organizations/acme/workspaces/vpc-dev')).body.data.attributes['source-module-id']).toBe('private/acme/vpc/aws/1.5.0');

    const initiates = w.count('POST', UPGRADE_INITIATE);
    const plan = await w.plan([lambdaModule(), vpcModule('1.3.0'), vpcDev()]);
    expect(plan.plan.changes.find((c) => c.name === 'vpc-dev')?.notes).toContainEqual({ code: 'resumes-upgrade-run', runId: inFlight?.runId, phase: inFlight?.phase });
    const b = await w.apply(plan);
    expect(b.counts.failed).toBe(0);
    expect(w.count('POST', UPGRADE_INITIATE)).toBe(initiates);
    expect(w.count('POST', new RegExp(`/upgrade/${inFlight?.runId}$`))).toBe(1);
    expect((await w.get('/organizations/acme/workspaces/vpc-dev')).body.data.attributes['source-module-id']).toBe('private/acme/vpc/aws/1.3.0');
  });

  it('an apply interrupted mid-upgrade leaves the run in state; the next apply polls that run (no second initiate)', async () => {
    w.sim.control.setStepDelay(40);
    const objects = [lambdaModule(), vpcModule('1.5.0'), vpcDev()];
    const initiates = w.count('POST', UPGRADE_INITIATE);
    const controller = new AbortController();
    const timer = setInterval(() => {
      if (w.count('POST', UPGRADE_INITIATE) > initiates) controller.abort();
    }, 2);
    const a = await w.converge(objects, { signal: controller.signal });
    clearInterval(timer);
    // An interrupt is no failure: the run goes on and stays recorded (status cancelled, detail run-interrupted).
    expect(a.outcomes.find((x) => x.name === 'vpc-dev')).toMatchObject({ status: 'cancelled', detail: { code: 'run-interrupted' } });
    const inFlight = w.state.doc.records.find((r) => r.name === 'vpc-dev')?.inFlight;
    expect(inFlight).toMatchObject({ purpose: 'upgrade', toVersion: '1.5.0' });

    w.sim.control.setStepDelay(2);
    const b = await w.converge(objects);
    expect(b.counts.failed).toBe(0);
    expect(w.count('POST', UPGRADE_INITIATE)).toBe(initiates + 1);
    expect(w.reporter.events.some((e) => e.code === 'tfe.run.resume' && e.data?.runId === inFlight?.runId)).toBe(true);
    expect((await w.get('/organizations/acme/workspaces/vpc-dev')).body.data.attributes['source-module-id']).toBe('private/acme/vpc/aws/1.5.0');
    expect(hasChanges((await w.plan(objects)).plan)).toBe(false);
  });

  it('variables: a changed plain value is updated, a changed secret rewritten, a removed one deleted', async () => {
    w.env.VPC_DB_PASSWORD = 'tfe-it-Pw4Rk7-rotated-9';
    const objects = [
      lambdaModule(),
      vpcModule('1.5.0'),
      vpcDev({
        variables: [
          { key: 'region', value: 'us-east-1' },
          { key: 'db_password', value: { fromEnv: 'VPC_DB_PASSWORD' }, sensitive: true },
          { key: 'TF_LOG', value: 'info', category: 'env' },
        ],
      }),
    ];
    const run = await w.plan(objects);
    const c = run.plan.changes.find((x) => x.name === 'vpc-dev');
    expect(c?.fields.map((f) => f.path)).toEqual(['variables.env.TF_LOG', 'variables.terraform.db_password.value', 'variables.terraform.region.value']);
    const before = { post: w.count('POST', /\/vars$/), patch: w.count('PATCH', /\/vars\//) };
    expect((await w.apply(run)).counts.failed).toBe(0);
    expect(w.count('POST', /\/vars$/) - before.post).toBe(1);
    expect(w.count('PATCH', /\/vars\//) - before.patch).toBe(2);
    expect(hasChanges((await w.plan(objects)).plan)).toBe(false);
    // Dropping TF_LOG from the manifest deletes it (converge manages it now).
    const deletes = w.count('DELETE', /\/vars\//);
    await w.converge([lambdaModule(), vpcModule('1.5.0'), vpcDev({ variables: [{ key: 'region', value: 'us-east-1' }, { key: 'db_password', value: { fromEnv: 'VPC_DB_PASSWORD' }, sensitive: true }] })]);
    expect(w.count('DELETE', /\/vars\//) - deletes).toBe(1);
  });

  it('a secret rewritten outside converge shows as hidden drift (version-id moved), never as its value', async () => {
    const objects = [lambdaModule(), vpcModule('1.5.0'), vpcDev({ variables: [{ key: 'region', value: 'us-east-1' }, { key: 'db_password', value: { fromEnv: 'VPC_DB_PASSWORD' }, sensitive: true }] })];
    expect((await w.plan(objects)).plan.drift).toEqual([]);
    const wsId = w.state.doc.records.find((r) => r.name === 'vpc-dev')?.id ?? '';
    const headers = { Authorization: `Bearer ${w.sim.tokens.team}`, 'Content-Type': 'application/vnd.api+json' };
    const list = (await (await fetch(`${w.sim.url}/api/v2/workspaces/${wsId}/vars`, { headers })).json()) as { data: { id: string; attributes: { key: string } }[] };
    const varId = list.data.find((v) => v.attributes.key === 'db_password')?.id ?? '';
    const patched = await fetch(`${w.sim.url}/api/v2/workspaces/${wsId}/vars/${varId}`, {
      method: 'PATCH',
      headers,
      body: JSON.stringify({ data: { id: varId, type: 'vars', attributes: { value: 'changed-by-hand-771' } } }),
    });
    expect(patched.status).toBe(200);
    const run = await w.plan(objects);
    expect(run.plan.drift.map((d) => [d.name, d.cause])).toEqual([['vpc-dev', 'hidden']]);
    expect(run.plan.drift[0]?.detail).toEqual({ code: 'hidden-change', hidden: { code: 'secret-versions-moved', paths: ['terraform:db_password'] } });
    expect(JSON.stringify(run.plan)).not.toContain('changed-by-hand-771');
  });

  it('an unknown project is a load diagnostic at /spec/project', async () => {
    const run = await w.plan([lambdaModule(), vpcModule('1.5.0'), vpcDev({ project: 'Nope' })]);
    const d = run.plan.diagnostics.find((x) => x.code === 'tfe.workspace.project-unknown');
    expect(d?.severity).toBe('error');
    expect(d?.range?.start.line).toBe(5);
  });

  it('safe-delete refused (409) is reported with the service’s reason', async () => {
    w.sim.control.setManagedResources('vpc-dev', 3);
    const result = await w.converge([lambdaModule(), vpcModule('1.5.0')]);
    const o = result.outcomes.find((x) => x.name === 'vpc-dev');
    expect(o?.status).toBe('failed');
    expect(o?.error?.code).toBe('tfe.workspace.safe-delete-refused');
    expect(o?.message).toMatch(/managing resources/);
    // Its module is not deleted either way (still desired); the workspace stays owned.
    expect(w.state.doc.records.some((r) => r.name === 'vpc-dev')).toBe(true);
  });

  it('deletion destroy: a destroy run, confirmed and followed, then safe-delete; the module delete waits for it', async () => {
    await w.converge([lambdaModule(), vpcModule('1.5.0'), vpcDev({ deletion: 'destroy' })]);
    expect(w.state.doc.records.find((r) => r.name === 'vpc-dev')?.applied.deletion).toBe('destroy');
    const run = await w.plan([lambdaModule()]);
    const del = run.plan.changes.find((c) => c.name === 'vpc-dev');
    expect(del).toMatchObject({ action: 'delete', deletion: 'destroy' });
    expect(del?.reasons).toEqual([{ code: 'deletion-policy', policy: 'destroy' }]);
    const result = await w.apply(run);
    expect(result.counts.failed).toBe(0);
    expect(result.outcomes.find((x) => x.name === 'vpc-dev')?.detail).toMatchObject({ code: 'destroyed', deleted: true });
    expect((await w.get('/organizations/acme/workspaces/vpc-dev')).status).toBe(404);
    expect(w.state.doc.records.map((r) => r.name)).toEqual(['lambda']);
    expect(hasChanges((await w.plan([lambdaModule()])).plan)).toBe(false);
  });
});

describe('TFE provider preflight and reads', () => {
  let w: TfeWorld;
  beforeAll(async () => {
    w = await TfeWorld.start();
  });
  afterAll(async () => w?.close());

  it('refuses an organization token before any write; a bad token is invalid; user and team tokens pass', async () => {
    const org = w.makeProvider(w.sim.tokens.organization);
    const diags = (await org.preflight?.(w.ctx(), ['NoCodeModule'])) ?? [];
    expect(diags.map((d) => d.code)).toEqual(['tfe.token.organization']);
    expect(diags[0]?.summary).toMatch(/organization token/);
    await org.close();
    const bad = w.makeProvider('not-a-token');
    expect(((await bad.preflight?.(w.ctx(), ['NoCodeModule'])) ?? []).map((d) => d.code)).toEqual(['tfe.token.invalid']);
    await bad.close();
    for (const token of [w.sim.tokens.user, w.sim.tokens.team]) {
      const p = w.makeProvider(token);
      expect(await p.preflight?.(w.ctx(), ['NoCodeWorkspace'])).toEqual([]);
      await p.close();
    }
    expect(w.sim.log.writes('tfe')).toEqual([]);
  });

  it('many workspaces are read through the paginated list, not one show each', async () => {
    const names = Array.from({ length: 25 }, (_, i) => `bulk-${String(i).padStart(2, '0')}`);
    const objects = [lambdaModule(), ...names.map((n) => doc('NoCodeWorkspace', n, { module: 'lambda' }))];
    const shows = w.count('GET', /\/organizations\/acme\/workspaces\/[^/]+$/);
    const run = await w.plan(objects);
    expect(run.plan.changes.filter((c) => c.action === 'create')).toHaveLength(26);
    expect(w.count('GET', /\/organizations\/acme\/workspaces\/[^/]+$/)).toBe(shows);
    expect(w.count('GET', /\/organizations\/acme\/workspaces$/)).toBeGreaterThanOrEqual(1);
  });

  it('a 422 on create points at the manifest field', async () => {
    // Agent mode with a pool id the organization does not have: load already says so, at /spec/agentPoolId.
    const run = await w.plan([lambdaModule(), doc('NoCodeWorkspace', 'agent-ws', { module: 'lambda', executionMode: 'agent', agentPoolId: 'apool-nope' })]);
    expect(run.plan.diagnostics.map((d) => d.code)).toContain('tfe.workspace.agent-pool-unknown');
  });

  it('a 422 from the service carries the manifest range of the field its pointer names', async () => {
    const result = await w.converge([lambdaModule(), doc('NoCodeWorkspace', 'bad name!', { module: 'lambda' })]);
    const o = result.outcomes.find((x) => x.kind === 'NoCodeWorkspace');
    expect(o?.status).toBe('failed');
    expect(o?.error?.code).toBe('tfe.invalid');
    expect(o?.error?.range?.start).toEqual({ line: 2, col: 7 });
    expect(o?.message).toMatch(/Name may only contain/);
  });

  void FAST;
});
