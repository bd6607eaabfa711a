import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyCommand } from '../../src/cli/commands/apply.js';
import { loginExplainCommand } from '../../src/cli/commands/login.js';
import { stateList } from '../../src/cli/commands/state.js';
import type { Host } from '../../src/cli/host.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { DEFAULT_TFE_SEED } from '../../src/sandbox/tfe/default-seed.js';
import { runCli, type CliResult } from '../e2e/harness.js';
import { oktaMethod } from '../e2e/manifests.js';
import { applying, drifting, inProcessWith, planning, validating, type CommandStep } from '../library/story.js';

/*
 * One set of manifests, two environments (`--env dev`, `--env prod`), each on its own Nomad cluster and
 * HCP Terraform organization (two sandboxes), with its own values and its own state. The commands' own code runs
 * in-process with the Host `--env NAME` gives them (`inProcessWith`); an unknown `--env` and an address variable
 * that contradicts the environment go through the built CLI.
 */

const DEV_SECRET = 'env-dev-okta-secret-Vq37';
const PROD_SECRET = 'env-prod-okta-secret-Kx58';

const settings = (dev: Sandbox, prod: Sandbox) => `kind: Settings
name: settings
spec:
  state: { backend: local }
  environments:
    dev:
      nomad: { address: ${dev.nomad.url} }
      tfe: { address: ${dev.tfe.url}, organization: acme }
      values:
        clientId: dev-client
        clientSecret: { fromEnv: DEV_OKTA_SECRET }
        functionName: hello-dev
        lambdaModule: acme/lambda/aws
    prod:
      nomad: { address: ${prod.nomad.url} }
      tfe: { address: ${prod.tfe.url}, organization: acme-prod }
      values:
        clientId: prod-client
        clientSecret: { fromEnv: PROD_OKTA_SECRET }
        functionName: hello-prod
        lambdaModule: acme-prod/lambda/aws
`;

/** The auth method, module and workspace, each taking its environment's values. */
const MANIFESTS = `${oktaMethod('{ fromValue: clientSecret }').replace('oidcClientId: 0oa1\n', 'oidcClientId: { fromValue: clientId }\n')}---
kind: NoCodeModule
name: lambda
spec:
  registryModule: { fromValue: lambdaModule }
---
kind: NoCodeWorkspace
name: lambda
spec:
  module: lambda
  variables:
    - key: function_name
      value: { fromValue: functionName }
`;

let dev: Sandbox;
let prod: Sandbox;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'converge-environments-'));
  const seed = join(dir, 'prod-seed.json');
  await writeFile(seed, JSON.stringify({ ...DEFAULT_TFE_SEED, organization: 'acme-prod' }));
  dev = await startSandbox({ stepDelayMs: 5 });
  prod = await startSandbox({ stepDelayMs: 5, seedFile: seed });
  await write('m/settings.yaml', settings(dev, prod));
  await write('m/objects.yaml', MANIFESTS);
});

afterAll(async () => {
  await Promise.allSettled([dev?.stop(), prod?.stop()]);
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function write(file: string, text: string): Promise<void> {
  await mkdir(dirname(join(dir, file)), { recursive: true });
  await writeFile(join(dir, file), text);
}

/** One environment's tokens (as a CI job of that environment has them) and no address variables. */
function envOf(tokensOf: Sandbox): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: dir,
    NO_COLOR: '1',
    NOMAD_TOKEN: tokensOf.env.NOMAD_TOKEN ?? '',
    TFE_TOKEN: tokensOf.env.TFE_TOKEN ?? '',
    DEV_OKTA_SECRET: DEV_SECRET,
    PROD_OKTA_SECRET: PROD_SECRET,
  };
}

/** The built CLI with one environment's tokens. */
function cli(args: string[], tokensOf: Sandbox = dev): Promise<CliResult> {
  return runCli(args, { cwd: dir, env: envOf(tokensOf) });
}

/** A command's own code with one environment's tokens, as `converge … [--env NAME]` runs it. */
function run(step: CommandStep, opts: { env?: string; tokensOf?: Sandbox; cwd?: string } = {}): Promise<CliResult> {
  return inProcessWith({ cwd: opts.cwd ?? dir, env: envOf(opts.tokensOf ?? dev), ...(opts.env !== undefined ? { environment: opts.env } : {}) }, step);
}

async function authMethod(s: Sandbox): Promise<{ status: number; clientId?: string }> {
  const r = await fetch(`${s.nomad.url}/v1/acl/auth-method/okta`, { headers: { 'X-Nomad-Token': s.nomad.managementToken } });
  if (r.status !== 200) return { status: r.status };
  const body = (await r.json()) as { Config?: { OIDCClientID?: string } };
  return { status: 200, ...(body.Config?.OIDCClientID ? { clientId: body.Config.OIDCClientID } : {}) };
}

async function workspaceVariables(s: Sandbox, org: string): Promise<string[]> {
  const headers = { Authorization: `Bearer ${s.tfe.tokens.team}`, Accept: 'application/vnd.api+json' };
  const list = (await (await fetch(`${s.tfe.url}/api/v2/organizations/${org}/workspaces`, { headers })).json()) as { data: { id: string; attributes: { name: string } }[] };
  const ws = list.data.find((w) => w.attributes.name === 'lambda');
  if (!ws) return [];
  const vars = (await (await fetch(`${s.tfe.url}/api/v2/workspaces/${ws.id}/vars`, { headers })).json()) as { data: { attributes: { key: string; value: string } }[] };
  return vars.data.map((v) => `${v.attributes.key}=${v.attributes.value}`);
}

function noSecrets(r: CliResult): void {
  for (const secret of [DEV_SECRET, PROD_SECRET]) expect(r.stdout + r.stderr).not.toContain(secret);
}

describe('environments: one set of manifests, several targets', () => {
  it('validate without --env checks every environment', async () => {
    const r = await run(validating(['m']));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('valid in environments dev, prod');
  });

  it('applies each environment to its own cluster and organization, with its own values and state', async () => {
    // The workspace's run is read every 20 ms, not from 1 s backing off to 10 s: the sandbox's runs take milliseconds.
    const a = await run(applying({ pollInterval: '20ms' }, ['m']), { env: 'dev' });
    expect(a.code, a.stderr).toBe(0);
    noSecrets(a);
    expect(await authMethod(dev)).toEqual({ status: 200, clientId: 'dev-client' });
    expect((await authMethod(prod)).status).toBe(404);
    expect(await workspaceVariables(dev, 'acme')).toContain('function_name=hello-dev');

    // prod has its own state: dev's records do not make it think anything exists there.
    const planProd = await run(planning({ json: true }, ['m']), { env: 'prod', tokensOf: prod });
    expect(planProd.code, planProd.stderr).toBe(0);
    const json = JSON.parse(planProd.stdout) as { environment?: string; summary: { create: number } };
    expect(json.environment).toBe('prod');
    expect(json.summary.create).toBe(3);

    const b = await run(applying({ pollInterval: '20ms' }, ['m']), { env: 'prod', tokensOf: prod });
    expect(b.code, b.stderr).toBe(0);
    noSecrets(b);
    expect(await authMethod(prod)).toEqual({ status: 200, clientId: 'prod-client' });
    expect(await workspaceVariables(prod, 'acme-prod')).toContain('function_name=hello-prod');
    expect(await authMethod(dev)).toEqual({ status: 200, clientId: 'dev-client' });

    // Separate states, next to the Settings document; none where a run without --env keeps its state.
    const devState = await readFile(join(dir, 'm/.converge/envs/dev/state.json'), 'utf8');
    const prodState = await readFile(join(dir, 'm/.converge/envs/prod/state.json'), 'utf8');
    expect(devState).not.toEqual(prodState);
    expect(existsSync(join(dir, 'm/.converge/state.json'))).toBe(false);
    for (const text of [devState, prodState]) for (const secret of [DEV_SECRET, PROD_SECRET]) expect(text).not.toContain(secret);

    // Each re-plan, from another working directory too, is a no-op and says which environment it is for.
    for (const [env, s] of [['dev', dev], ['prod', prod]] as const) {
      const p = await run(planning({ detailedExitcode: true }), { env, tokensOf: s, cwd: join(dir, 'm') });
      expect(p.code, p.stdout + p.stderr).toBe(0);
      expect(p.stdout).toContain(`Environment: ${env}.`);
      expect(p.stdout).toContain(`envs/${env}/state.json`);
    }
    const md = await run(planning({ markdown: true }, ['m']), { env: 'prod', tokensOf: prod });
    expect(md.stdout).toContain('## converge plan: environment `prod`');
    const drift = await run(drifting({ json: true }, ['m']), { env: 'dev' });
    expect(drift.code, drift.stderr).toBe(0);
    expect(JSON.parse(drift.stdout)).toMatchObject({ inSync: true, environment: 'dev' });
    // login explain --live reads the environment's Nomad, where the method has prod's client.
    await writeFile(join(dir, 'claims.json'), JSON.stringify({ email: 'ada@acme.example' }));
    const explaining: CommandStep = Object.assign((h: Host) => loginExplainCommand(h, ['m'], { live: true, method: 'okta', claims: 'claims.json', json: true }), { json: true });
    const live = await run(explaining, { env: 'prod', tokensOf: prod });
    expect(live.code, live.stderr).toBe(0);
    const list = await run((h) => stateList(h, ['m']), { env: 'prod', tokensOf: prod });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain('NomadAuthMethod/okta');
  });

  it('refuses to apply a saved plan to another environment', async () => {
    const p = await run(planning({ out: 'dev-plan.json' }, ['m']), { env: 'dev' });
    expect(p.code, p.stderr).toBe(0);
    const applyingSaved: CommandStep = (h) => applyCommand(h, ['.'], { plan: 'dev-plan.json' });
    const a = await run(applyingSaved, { env: 'prod', tokensOf: prod });
    expect(a.code).toBe(1);
    expect(a.stderr).toContain('this saved plan was made for environment dev, but apply was run with --env prod');
    const none = await run(applyingSaved);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('apply it with --env dev');
  });

  it('names the known environments for an unknown --env, with the closest', async () => {
    const r = await cli(['plan', '--env', 'prd', 'm'], prod);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('unknown environment `prd` (--env)');
    expect(r.stderr).toContain('Did you mean `prod`?');
    expect(r.stderr).toContain('Environments: dev, prod.');
    expect(r.stderr).toMatch(/on m\/settings\.yaml line \d+, column \d+/);
    expect(r.stderr).not.toContain('fromValue');
  });

  it('needs --env in a repository that declares environments', async () => {
    const r = await run(planning({}, ['m']));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('needs --env NAME');
    expect(r.stderr).toContain('Pass --env with one of: dev, prod.');
  });

  it('reports a value the environment lacks at the reference, naming the environment and the fix', async () => {
    await write('bad/settings.yaml', settings(dev, prod));
    await write('bad/objects.yaml', MANIFESTS.replace('{ fromValue: functionName }', '{ fromValue: functionNam }'));
    const r = await run(validating(['bad']), { env: 'prod' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('environment `prod` has no value `functionNam`');
    expect(r.stderr).toMatch(/on bad\/objects\.yaml line 26, column 27/);
    expect(r.stderr).not.toContain('unknown field');
    expect(r.stderr).toContain('Did you mean `functionName`?');
    expect(r.stderr).toContain('Add `functionNam` under spec.environments.prod.values');
  });

  it('refuses --env where no environments are declared', async () => {
    await write('plain/objects.yaml', MANIFESTS.replace('{ fromValue: clientId }', 'c1').replace('{ fromValue: clientSecret }', '{ fromEnv: DEV_OKTA_SECRET }').replace('{ fromValue: functionName }', 'f').replace('{ fromValue: lambdaModule }', 'acme/lambda/aws'));
    const r = await run(validating(['plain']), { env: 'dev' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--env dev: there is no Settings document, so no environments');
    const ok = await run(validating(['plain']));
    expect(ok.code, ok.stderr).toBe(0);
  });

  it('refuses an address variable that points elsewhere than the environment', async () => {
    const r = await runCli(['plan', '--env', 'dev', 'm'], { cwd: dir, env: { PATH: process.env.PATH ?? '', HOME: dir, ...dev.env, NOMAD_ADDR: prod.nomad.url, DEV_OKTA_SECRET: DEV_SECRET } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`NOMAD_ADDR is ${prod.nomad.url}, but environment dev sets nomad.address to ${dev.nomad.url}`);
  });
});
