import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { givenApplied, openWorkspace, spawnCli, waitFor, type Workspace } from './harness.js';

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

interface JsonPlan {
  changes: { kind: string; name: string; action: string; upgrade?: { from: string | null; to: string | null }; notes: string[]; fields: { path: string; after: unknown }[] }[];
}

const FAST = ['--poll-interval', '20ms', '--run-timeout', '60s'];

async function workspaceAttrs(ws: Workspace, name: string): Promise<Record<string, unknown>> {
  const r = await fetch(`${ws.sandbox.tfe.url}/api/v2/organizations/acme/workspaces/${name}`, {
    headers: { Authorization: `Bearer ${ws.sandbox.tfe.tokens.user}` },
  });
  expect(r.status).toBe(200);
  return ((await r.json()) as { data: { attributes: Record<string, unknown> } }).data.attributes;
}

describe('HCP Terraform no-code modules and workspaces end to end (built CLI ↔ sandbox)', () => {
  // Each test starts from a fresh sandbox and directory, and first makes the world it needs
  // (`applied`), so any one of them runs alone (`-t`).
  let ws: Workspace;
  beforeEach(async () => {
    ws = await openWorkspace();
    await ws.write('settings.yaml', SETTINGS);
    await ws.write('vpc.yaml', vpc());
    await ws.write('lambda.yaml', LAMBDA);
  });
  afterEach(async () => ws?.close());

  /** The modules and the workspace as written, applied by converge (its first run followed); the request log cleared. */
  async function applied(opts: Parameters<typeof vpc>[0] = {}): Promise<void> {
    await ws.write('vpc.yaml', vpc(opts));
    await givenApplied(ws, FAST);
  }

  it('plans a module without a pin at the latest version, sending no writes', async () => {
    const r = await ws.cli(['plan', '--json']);
    expect(r.stderr).not.toMatch(/^Error/m);
    const plan = JSON.parse(r.stdout) as JsonPlan;
    const lambda = plan.changes.find((c) => c.name === 'lambda');
    expect(lambda?.action).toBe('create');
    expect(JSON.stringify(lambda)).toContain('1.1.0');
    expect(ws.sandbox.log.writes()).toEqual([]);
  });

  it('creates the modules and the workspace, follows its first run, and re-plans clean', async () => {
    const a = await ws.cli(['apply', '--auto-approve', ...FAST]);
    expect(a.stdout + a.stderr).not.toContain(ws.env.VPC_DB_PASSWORD);
    expect(a.code).toBe(0);
    const attrs = await workspaceAttrs(ws, 'vpc-dev');
    expect(attrs['source-module-id']).toBe('private/acme/vpc/aws/1.4.0');
    const p = await ws.cli(['plan', '--detailed-exitcode']);
    expect(p.stdout).toContain('No changes');
    expect(p.code).toBe(0);
  });

  it('a pin bump plans the module update and the workspace upgrade, and apply drives it to applied', async () => {
    await applied();
    await ws.write('vpc.yaml', vpc({ pin: '1.5.0' }));
    const p = await ws.cli(['plan', '--json']);
    const plan = JSON.parse(p.stdout) as JsonPlan;
    expect(plan.changes.find((c) => c.name === 'vpc')?.action).toBe('update');
    const up = plan.changes.find((c) => c.name === 'vpc-dev');
    expect(up?.action).toBe('upgrade');
    expect(up?.upgrade).toEqual({ from: '1.4.0', to: '1.5.0' });
    const a = await ws.cli(['apply', '--auto-approve', ...FAST]);
    expect(a.code).toBe(0);
    expect((await workspaceAttrs(ws, 'vpc-dev'))['source-module-id']).toBe('private/acme/vpc/aws/1.5.0');
    expect((await ws.cli(['plan', '--detailed-exitcode'])).code).toBe(0);
  });

  it('an errored upgrade fails that workspace naming the run and its state', async () => {
    await applied({ pin: '1.5.0' });
    ws.sandbox.tfe.control.setNextRunOutcome('vpc-dev', 'errored');
    await ws.write('vpc.yaml', vpc({ pin: '1.3.0' }));
    const a = await ws.cli(['apply', '--auto-approve', ...FAST]);
    expect(a.code).toBe(1);
    expect(a.stdout + a.stderr).toMatch(/run-[A-Za-z0-9]+/);
    expect(a.stdout + a.stderr).toContain('errored');
  });

  it('manual confirm stops after the plan; a later apply with auto confirms it', async () => {
    await applied({ pin: '1.5.0' });
    await ws.write('vpc.yaml', vpc({ pin: '1.3.0', confirm: 'manual' }));
    const a = await ws.cli(['apply', '--auto-approve', ...FAST]);
    expect(a.code).toBe(3);
    expect(a.stdout).toMatch(/awaiting confirmation/i);
    expect(a.stdout).toMatch(/\/runs\/run-/);
    expect((await workspaceAttrs(ws, 'vpc-dev'))['source-module-id']).toBe('private/acme/vpc/aws/1.5.0');
    await ws.write('vpc.yaml', vpc({ pin: '1.3.0', confirm: 'auto' }));
    const b = await ws.cli(['apply', '--auto-approve', ...FAST]);
    expect(b.code).toBe(0);
    expect((await workspaceAttrs(ws, 'vpc-dev'))['source-module-id']).toBe('private/acme/vpc/aws/1.3.0');
  });

  it('a killed apply mid-upgrade resumes the same run on rerun', async () => {
    await applied({ pin: '1.3.0' });
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

  it('refuses an organization token before any write', async () => {
    await applied({ pin: '1.5.0' });
    await ws.write('vpc.yaml', vpc({ pin: '1.4.0' }));
    const writesBefore = ws.sandbox.log.writes().length;
    const a = await ws.cli(['apply', '--auto-approve', ...FAST], { TFE_TOKEN: ws.sandbox.tfe.tokens.organization });
    expect(a.code).toBe(1);
    expect(a.stderr).toMatch(/organization token/i);
    expect(ws.sandbox.log.writes().length).toBe(writesBefore);
  });

  it('safe-delete refuses while the workspace manages resources, and says so', async () => {
    await applied({ pin: '1.5.0' });
    await ws.write('vpc.yaml', vpc({ pin: '1.5.0' }).split('---')[0] ?? '');
    ws.sandbox.tfe.control.setManagedResources('vpc-dev', 3);
    const a = await ws.cli(['apply', '--auto-approve', ...FAST]);
    expect(a.code).toBe(1);
    expect(a.stdout + a.stderr).toMatch(/managing resources/);
  });

  it('deletion: destroy queues a destroy run, drives it, then safe-deletes', async () => {
    await applied({ pin: '1.5.0' });
    ws.sandbox.tfe.control.setManagedResources('vpc-dev', 3);
    await ws.write('vpc.yaml', vpc({ pin: '1.5.0', deletion: 'destroy' }));
    expect((await ws.cli(['apply', '--auto-approve', ...FAST])).code).toBe(0);
    await ws.write('vpc.yaml', vpc({ pin: '1.5.0' }).split('---')[0] ?? '');
    const p = await ws.cli(['plan']);
    expect(p.stdout).toMatch(/destroy/);
    const a = await ws.cli(['apply', '--auto-approve', ...FAST]);
    expect(a.code).toBe(0);
    const r = await fetch(`${ws.sandbox.tfe.url}/api/v2/organizations/acme/workspaces/vpc-dev`, {
      headers: { Authorization: `Bearer ${ws.sandbox.tfe.tokens.user}` },
    });
    expect(r.status).toBe(404);
    expect((await ws.cli(['plan', '--detailed-exitcode'])).code).toBe(0);
  });

  it('a 422 from the service points at the manifest file and line of the field it names', async () => {
    await applied();
    const name = `w-${'x'.repeat(93)}`;
    await ws.write('long.yaml', `kind: NoCodeWorkspace\nname: ${name}\nspec:\n  module: lambda\n  autoApply: true\n`);
    const a = await ws.cli(['apply', '--auto-approve', ...FAST]);
    await ws.write('long.yaml', '');
    expect(a.code).toBe(1);
    const out = a.stdout + a.stderr;
    // The sandbox answers 422 at /data/attributes/name; converge maps it to the document's name line.
    expect(out).toMatch(/Name is too long/);
    expect(out).toMatch(/long\.yaml line 2, column \d+/);
  });

  it('a 404 is explained as not found or not authorized, naming the object and the organization', async () => {
    // TFE_ORGANIZATION fills in only when the Settings document names no organization (decisions §11).
    await ws.write('no-org/settings.yaml', 'kind: Settings\nname: settings\nspec:\n  state: { backend: local, path: .converge/no-org.json }\n');
    await ws.write('no-org/vpc.yaml', await readFile(join(ws.dir, 'vpc.yaml'), 'utf8'));
    const p = await ws.cli(['plan', 'no-org'], { TFE_ORGANIZATION: 'nope' });
    await rm(join(ws.dir, 'no-org'), { recursive: true });
    expect(p.code).toBe(1);
    expect(p.stdout + p.stderr).toMatch(/registry modules of nope not found in organization nope, or the token is not authorized/);
  });
});
