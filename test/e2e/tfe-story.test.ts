import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hasChanges } from '../../src/plan/types.js';
import { renderPlanText } from '../../src/views/plan-text.js';
import { onClock, printedApply as printed, refusal, storyPerTest, type Story } from '../library/story.js';
import { givenApplied, openWorkspace, spawnCli, waitFor, type Workspace } from './harness.js';

/*
 * HCP Terraform no-code modules and workspaces end to end: the library against the HCP Terraform simulator in
 * this process, its runs stepped by a manual clock, asserting on plan data, the views the CLI prints and the
 * request log. A process killed mid-upgrade runs the built CLI at the end.
 */

const SETTINGS = `kind: Settings
name: default
spec:
  tfe: { organization: acme }
  state: { backend: local, path: .converge/state.json }
`;

function vpc(opts: { pin?: string; confirm?: 'auto' | 'manual'; deletion?: string } = {}): string {
  return `kind: NoCodeModule
name: vpc
spec:
  registryModule: acme/vpc/aws
  versionPin: ${opts.pin ?? '1.4.0'}
  enabled: true
  variableOptions:
    - variableName: region
      variableType: string
      options: [us-east-1, eu-west-1]
---
kind: NoCodeWorkspace
name: vpc-dev
spec:
  module: vpc
  project: Platform
  description: Dev network
  executionMode: remote
  autoApply: false
  sourceName: converge
  sourceUrl: https://github.com/acme/platform
  variables:
    - key: region
      value: eu-west-1
      category: terraform
    - key: db_password
      value: { fromEnv: VPC_DB_PASSWORD }
      category: terraform
      sensitive: true
  upgrade: { confirm: ${opts.confirm ?? 'auto'} }
  deletion: ${opts.deletion ?? 'safe'}
`;
}

const LAMBDA = `kind: NoCodeModule
name: lambda
spec:
  registryModule: acme/lambda/aws
  enabled: true
`;

const FAST = ['--poll-interval', '20ms', '--run-timeout', '60s'];

async function workspaceAttrs(w: { sandbox: Story['sandbox']; clock?: Story['clock'] }, name: string): Promise<Record<string, unknown>> {
  // The test's own read is not paced like converge's: one second on the story's clock first, so the simulator's
  // per-second rate window that the apply just used (its clock does not move while requests are under way) is past.
  if (w.clock) await onClock(w.clock, w.clock.sleep(1000));
  const { sandbox } = w;
  const r = await fetch(`${sandbox.tfe.url}/api/v2/organizations/acme/workspaces/${name}`, {
    headers: { Authorization: `Bearer ${sandbox.tfe.tokens.user}` },
  });
  expect(r.status).toBe(200);
  return ((await r.json()) as { data: { attributes: Record<string, unknown> } }).data.attributes;
}

const story = storyPerTest();

describe('HCP Terraform no-code modules and workspaces end to end (library ↔ simulator in-process)', () => {
  // Each test starts from a fresh simulator and directory, and first makes the world it needs
  // (`applied`), so any one of them runs alone (`-t`).
  let s: Story;
  beforeEach(async () => {
    s = await story();
    await s.write('settings.yaml', SETTINGS);
    await s.write('vpc.yaml', vpc());
    await s.write('lambda.yaml', LAMBDA);
  });

  /** The modules and the workspace as written, applied by converge (its first run followed); the request log cleared. */
  async function applied(opts: Parameters<typeof vpc>[0] = {}): Promise<void> {
    await s.write('vpc.yaml', vpc(opts));
    await s.apply();
    s.sandbox.log.clear();
  }
  /** What `plan --detailed-exitcode` exits 0 on. */
  const clean = async () => !hasChanges((await s.plan())!.run.plan);

  it('plans a module without a pin at the latest version, sending no writes', async () => {
    const r = await s.tryPlan();
    expect(r.problems).not.toMatch(/^Error/m);
    const lambda = r.result!.run.plan.changes.find((c) => c.name === 'lambda');
    expect(lambda?.action).toBe('create');
    expect(JSON.stringify(lambda)).toContain('1.1.0');
    expect(s.sandbox.log.writes()).toEqual([]);
  });

  it('creates the modules and the workspace, follows its first run, and re-plans clean', async () => {
    const a = await s.tryApply();
    expect(printed(a.report) + a.problems).not.toContain(s.env.VPC_DB_PASSWORD);
    expect(a.report.status === 'applied' && a.report.result.counts).toMatchObject({ failed: 0, awaiting: 0 });
    const attrs = await workspaceAttrs(s, 'vpc-dev');
    expect(attrs['source-module-id']).toBe('private/acme/vpc/aws/1.4.0');
    const p = (await s.plan())!.run.plan;
    expect(renderPlanText(p, { color: false })).toContain('No changes');
    expect(hasChanges(p)).toBe(false);
  });

  it('a pin bump plans the module update and the workspace upgrade, and apply drives it to applied', async () => {
    await applied();
    await s.write('vpc.yaml', vpc({ pin: '1.5.0' }));
    const changes = (await s.plan())!.run.plan.changes;
    expect(changes.find((c) => c.name === 'vpc')?.action).toBe('update');
    const up = changes.find((c) => c.name === 'vpc-dev');
    expect(up?.action).toBe('upgrade');
    expect(up?.upgrade).toMatchObject({ from: '1.4.0', to: '1.5.0' });
    expect((await s.apply()).status).toBe('applied');
    expect((await workspaceAttrs(s, 'vpc-dev'))['source-module-id']).toBe('private/acme/vpc/aws/1.5.0');
    expect(await clean()).toBe(true);
  });

  it('an errored upgrade fails that workspace naming the run and its state', async () => {
    await applied({ pin: '1.5.0' });
    s.sandbox.tfe.control.setNextRunOutcome('vpc-dev', 'errored');
    await s.write('vpc.yaml', vpc({ pin: '1.3.0' }));
    const a = await s.tryApply();
    expect(a.report.status === 'applied' && a.report.result.counts.failed).toBe(1);
    expect(printed(a.report)).toMatch(/run-[A-Za-z0-9]+/);
    expect(printed(a.report)).toContain('errored');
  });

  it('manual confirm stops after the plan; a later apply with auto confirms it', async () => {
    await applied({ pin: '1.5.0' });
    await s.write('vpc.yaml', vpc({ pin: '1.3.0', confirm: 'manual' }));
    const a = await s.tryApply();
    // Awaiting a person: what the CLI exits 3 on.
    expect(a.report.status === 'applied' && a.report.result.counts).toMatchObject({ failed: 0, awaiting: 1 });
    expect(printed(a.report)).toMatch(/awaiting confirmation/i);
    expect(printed(a.report)).toMatch(/\/runs\/run-/);
    expect((await workspaceAttrs(s, 'vpc-dev'))['source-module-id']).toBe('private/acme/vpc/aws/1.5.0');
    await s.write('vpc.yaml', vpc({ pin: '1.3.0', confirm: 'auto' }));
    const b = await s.apply();
    expect(b.status === 'applied' && b.result.counts).toMatchObject({ failed: 0, awaiting: 0 });
    expect((await workspaceAttrs(s, 'vpc-dev'))['source-module-id']).toBe('private/acme/vpc/aws/1.3.0');
  });

  it('refuses an organization token before any write', async () => {
    await applied({ pin: '1.5.0' });
    await s.write('vpc.yaml', vpc({ pin: '1.4.0' }));
    const writesBefore = s.sandbox.log.writes().length;
    const why = await refusal(s.tryApply({}, { TFE_TOKEN: s.sandbox.tfe.tokens.organization }));
    expect(why).toMatch(/organization token/i);
    expect(s.sandbox.log.writes().length).toBe(writesBefore);
  });

  it('safe-delete refuses while the workspace manages resources, and says so', async () => {
    await applied({ pin: '1.5.0' });
    await s.write('vpc.yaml', vpc({ pin: '1.5.0' }).split('---')[0] ?? '');
    s.sandbox.tfe.control.setManagedResources('vpc-dev', 3);
    const a = await s.tryApply();
    expect(a.report.status === 'applied' && a.report.result.counts.failed).toBe(1);
    expect(printed(a.report)).toMatch(/managing resources/);
  });

  it('deletion: destroy queues a destroy run, drives it, then safe-deletes', async () => {
    await applied({ pin: '1.5.0' });
    s.sandbox.tfe.control.setManagedResources('vpc-dev', 3);
    await s.write('vpc.yaml', vpc({ pin: '1.5.0', deletion: 'destroy' }));
    expect((await s.apply()).status).toBe('applied');
    await s.write('vpc.yaml', vpc({ pin: '1.5.0' }).split('---')[0] ?? '');
    expect(renderPlanText((await s.plan())!.run.plan, { color: false })).toMatch(/destroy/);
    expect((await s.apply()).status).toBe('applied');
    const r = await fetch(`${s.sandbox.tfe.url}/api/v2/organizations/acme/workspaces/vpc-dev`, {
      headers: { Authorization: `Bearer ${s.sandbox.tfe.tokens.user}` },
    });
    expect(r.status).toBe(404);
    expect(await clean()).toBe(true);
  });

  it('a 422 from the service points at the manifest file and line of the field it names', async () => {
    await applied();
    const name = `w-${'x'.repeat(93)}`;
    await s.write('long.yaml', `kind: NoCodeWorkspace\nname: ${name}\nspec:\n  module: lambda\n  autoApply: true\n`);
    const a = await s.tryApply();
    await s.write('long.yaml', '');
    expect(a.report.status === 'applied' && a.report.result.counts.failed).toBe(1);
    const out = printed(a.report) + a.problems;
    // The simulator answers 422 at /data/attributes/name; converge maps it to the document's name line.
    expect(out).toMatch(/Name is too long/);
    expect(out).toMatch(/long\.yaml line 2, column \d+/);
  });

  it('a 404 is explained as not found or not authorized, naming the object and the organization', async () => {
    // TFE_ORGANIZATION fills in only when the Settings document names no organization (decisions §11).
    await s.write('no-org/settings.yaml', 'kind: Settings\nname: settings\nspec:\n  state: { backend: local, path: .converge/no-org.json }\n');
    await s.write('no-org/vpc.yaml', await readFile(join(s.dir, 'vpc.yaml'), 'utf8'));
    const why = await refusal(s.tryPlan({ paths: ['no-org'] }, { TFE_ORGANIZATION: 'nope' }));
    await rm(join(s.dir, 'no-org'), { recursive: true });
    expect(why).toMatch(/registry modules of nope not found in organization nope, or the token is not authorized/);
  });
});

describe('HCP Terraform: what only the built CLI process shows', () => {
  let ws: Workspace;
  beforeEach(async () => {
    ws = await openWorkspace();
    await ws.write('settings.yaml', SETTINGS);
    await ws.write('vpc.yaml', vpc({ pin: '1.3.0' }));
    await ws.write('lambda.yaml', LAMBDA);
  });
  afterEach(async () => ws?.close());

  it('a killed apply mid-upgrade resumes the same run on rerun', async () => {
    await givenApplied(ws, FAST);
    ws.sandbox.tfe.control.setStepDelay(150);
    await ws.write('vpc.yaml', vpc({ pin: '1.5.0' }));
    const initiates = () => ws.sandbox.log.entries({ method: 'POST' }).filter((e) => /\/upgrade$/.test(e.path)).length;
    const before = initiates();
    const child = spawnCli(['apply', '--auto-approve', ...FAST], { cwd: ws.dir, env: ws.env });
    await waitFor(() => initiates() > before, 20_000, 'the upgrade to be initiated');
    await new Promise((r) => setTimeout(r, 100));
    child.kill('SIGKILL');
    await new Promise((r) => child.on('close', r));
    ws.sandbox.tfe.control.setStepDelay(5);
    const b = await ws.cli(['apply', '--auto-approve', ...FAST]);
    expect(b.code).toBe(0);
    expect(b.stderr).toMatch(/took over the local state file .* lock left by .*no longer running/);
    expect(initiates()).toBe(before + 1);
    expect((await workspaceAttrs(ws, 'vpc-dev'))['source-module-id']).toBe('private/acme/vpc/aws/1.5.0');
    expect((await ws.cli(['plan', '--detailed-exitcode'])).code).toBe(0);
  });
});
