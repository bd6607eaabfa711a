import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { CI_DIR, environmentWorkflowCommands, nomadJobCommands, REPO, workflowCommands } from './extract.js';
import { DEFAULT_TFE_SEED } from '../../src/sandbox/tfe/default-seed.js';

/*
 * Runs every `converge …` line of the CI examples, in the order CI would (plan on the PR, apply on
 * merge, drift on schedule, then the Nomad job's drift), with the built CLI against the sandbox in
 * a temp copy of examples/. A line that is wrong for the CLI (a flag that does not exist, a
 * missing file) exits 1; the examples are right only if every line exits 0 or 2.
 * Needs `npm run build` first (npm test does it).
 */

const CLI = join(REPO, 'dist', 'cli', 'main.js');

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

function runCli(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/**
 * docs/ci.md tells CI users to keep state in Nomad Variables (a runner's disk does not survive the
 * job): switch the copied Settings document to the nomad backend, so the commands run as in CI.
 * Returns how many Settings documents were switched.
 */
async function useNomadState(dir: string): Promise<number> {
  let switched = 0;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.ya?ml$/.test(entry.name)) continue;
    const file = join(entry.parentPath, entry.name);
    const docs = parseAllDocuments(await readFile(file, 'utf8'));
    if (!Array.isArray(docs)) continue;
    let changed = false;
    for (const doc of docs) {
      if (doc.get('kind') !== 'Settings') continue;
      doc.setIn(['spec', 'state'], doc.createNode({ backend: 'nomad', path: 'converge/ci-examples' }));
      changed = true;
      switched++;
    }
    if (changed) await writeFile(file, docs.map((d) => d.toString()).join(''));
  }
  return switched;
}

describe('every converge command in examples/ci runs against the sandbox', () => {
  let sandbox: Sandbox;
  let dir: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` before these tests`);
    dir = await mkdtemp(join(tmpdir(), 'converge-ci-examples-'));
    const ciPrefix = CI_DIR + sep;
    // examples/environments/ has its own workflows (below) and its own Settings document.
    const envDir = join(REPO, 'examples', 'environments');
    await cp(join(REPO, 'examples'), dir, { recursive: true, filter: (p) => p !== CI_DIR && !p.startsWith(ciPrefix) && p !== envDir && !p.startsWith(envDir + sep) });
    expect(await useNomadState(dir)).toBe(1);
    sandbox = await startSandbox({ stepDelayMs: 5 });
    const { GITHUB_ACTIONS: _ga, GITHUB_STEP_SUMMARY: _gs, ...base } = process.env;
    env = {
      ...base,
      ...sandbox.env,
      // Demo values for the secrets the example manifests reference (what CI maps from its secrets).
      OKTA_CLIENT_SECRET: 'ci-examples-okta-secret-7Hq2',
      VPC_DB_PASSWORD: 'ci-examples-vpc-Pw4Rk7-7Hq2',
      NO_COLOR: '1',
    };
  });

  afterAll(async () => {
    await sandbox?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const codes: { command: string; code: number }[] = [];

  const commands = [
    ...workflowCommands().map((c) => ({ where: `${c.file}: ${c.step}`, args: c.args })),
    ...nomadJobCommands().map((args) => ({ where: 'nomad/drift.nomad.hcl', args })),
  ];

  it('found the commands to run', () => {
    expect(commands.length).toBeGreaterThanOrEqual(5);
  });

  // Sequential on purpose: apply --plan needs the plan.json the plan line wrote.
  for (const { where, args } of commands) {
    it(`${where}: converge ${args.join(' ')}`, { timeout: 120_000 }, async () => {
      const r = await runCli(args, dir, env);
      codes.push({ command: args[0] ?? '', code: r.code });
      const context = `exit ${r.code}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`;
      expect([0, 2], context).toContain(r.code);
      expect(r.stderr + r.stdout).not.toContain('ci-examples-okta-secret-7Hq2');
      expect(r.stderr + r.stdout).not.toContain('ci-examples-vpc-Pw4Rk7-7Hq2');
      expect(r.stderr + r.stdout).not.toContain(sandbox.env.NOMAD_TOKEN);
      // State went to Nomad Variables, not to the runner's disk.
      expect(existsSync(join(dir, '.converge', 'state.json'))).toBe(false);
      if (args.includes('--markdown')) {
        // What CI redirects to plan.md / drift.md and posts: Markdown, not empty.
        expect(r.stdout.trim().length, context).toBeGreaterThan(0);
        expect(r.stdout, context).toMatch(/^#|\n#|\|/);
      }
      const out = args[args.indexOf('--out') + 1];
      if (args.includes('--out') && out) {
        const saved = JSON.parse(await readFile(join(dir, out), 'utf8')) as Record<string, unknown>;
        expect(saved).toHaveProperty('formatVersion');
      }
    });
  }

  it('tells the CI story: valid manifests, access ok, the PR plan has changes, the reviewed plan applies, then no drift', () => {
    const byCommand = (c: string) => codes.filter((x) => x.command === c).map((x) => x.code);
    expect(byCommand('validate')).toEqual([0]);
    expect(byCommand('doctor')).toEqual([0]);
    expect(byCommand('plan')).toEqual([2]);
    expect(byCommand('apply')).toEqual([0]);
    expect(byCommand('drift').every((code) => code === 0)).toBe(true);
  });

  it('kept the state in Nomad Variables, where the next CI job finds it', async () => {
    const res = await fetch(`${sandbox.env.NOMAD_ADDR}/v1/var/converge/ci-examples`, { headers: { 'X-Nomad-Token': sandbox.env.NOMAD_TOKEN ?? '' } });
    expect(res.status).toBe(200);
    const head = (await res.json()) as { Items: Record<string, string> };
    expect(Number(head.Items.serial)).toBeGreaterThan(0);
  });
});

/**
 * examples/environments/ points each environment at its own Nomad and HCP Terraform organization: here one
 * sandbox per environment, seeded with that organization, stands in for each, and the copied Settings
 * document is pointed at them (as a team's would be at its clusters).
 */
async function pointEnvironmentsAt(file: string, sandboxes: Record<string, Sandbox>): Promise<void> {
  const doc = parseAllDocuments(await readFile(file, 'utf8'));
  if (!Array.isArray(doc) || doc[0] === undefined) throw new Error(`no Settings document in ${file}`);
  for (const [env, s] of Object.entries(sandboxes)) {
    doc[0].setIn(['spec', 'environments', env, 'nomad', 'address'], s.nomad.url);
    doc[0].setIn(['spec', 'environments', env, 'tfe', 'address'], s.tfe.url);
  }
  await writeFile(file, doc[0].toString());
}

describe('every converge command of the environments workflows runs against a sandbox per environment', () => {
  const ORGANIZATIONS: Record<string, string> = { dev: 'acme-dev', staging: 'acme-staging', prod: 'acme' };
  const sandboxes: Record<string, Sandbox> = {};
  let dir: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` before these tests`);
    dir = await mkdtemp(join(tmpdir(), 'converge-ci-environments-'));
    await cp(join(REPO, 'examples', 'environments'), join(dir, 'environments'), { recursive: true });
    for (const [name, organization] of Object.entries(ORGANIZATIONS)) {
      const seed = join(dir, `seed-${name}.json`);
      await writeFile(seed, JSON.stringify({ ...DEFAULT_TFE_SEED, organization }));
      sandboxes[name] = await startSandbox({ stepDelayMs: 5, seedFile: seed });
    }
    await pointEnvironmentsAt(join(dir, 'environments', 'settings.yaml'), sandboxes);
    const { GITHUB_ACTIONS: _ga, GITHUB_STEP_SUMMARY: _gs, NOMAD_ADDR: _na, TFE_ADDRESS: _ta, TFE_ORGANIZATION: _to, ...base } = process.env;
    // The sandboxes share their tokens (the default seed's and the Nomad simulator's default): one job's worth.
    const first = sandboxes.dev as Sandbox;
    env = {
      ...base,
      NOMAD_TOKEN: first.env.NOMAD_TOKEN,
      TFE_TOKEN: first.env.TFE_TOKEN,
      OKTA_CLIENT_SECRET_DEV: 'ci-env-dev-secret-3Hn8',
      OKTA_CLIENT_SECRET_STAGING: 'ci-env-staging-secret-3Hn8',
      OKTA_CLIENT_SECRET_PROD: 'ci-env-prod-secret-3Hn8',
      NO_COLOR: '1',
    };
  });

  afterAll(async () => {
    await Promise.allSettled(Object.values(sandboxes).map((s) => s.stop()));
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const commands = environmentWorkflowCommands();
  const ran: { args: string[]; code: number }[] = [];

  it('found validate, then doctor and plan per environment, then apply to dev, staging and prod in order', () => {
    const envOf = (args: string[]) => args[args.indexOf('--env') + 1];
    expect(commands.map((c) => `${c.args[0]}${c.args.includes('--env') ? ` ${envOf(c.args)}` : ''}`)).toEqual([
      'validate',
      'doctor dev',
      'plan dev',
      'doctor staging',
      'plan staging',
      'doctor prod',
      'plan prod',
      'apply dev',
      'apply staging',
      'apply prod',
    ]);
  });

  for (const { where, args } of commands.map((c) => ({ where: `${c.file}: ${c.step}`, args: c.args }))) {
    it(`${where}: converge ${args.join(' ')}`, { timeout: 120_000 }, async () => {
      const r = await runCli(args, dir, env);
      ran.push({ args, code: r.code });
      const context = `exit ${r.code}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`;
      expect([0, 2], context).toContain(r.code);
      for (const secret of ['ci-env-dev-secret-3Hn8', 'ci-env-staging-secret-3Hn8', 'ci-env-prod-secret-3Hn8']) expect(r.stderr + r.stdout).not.toContain(secret);
      if (args[0] === 'plan') expect(r.stdout, context).toContain(`## converge plan: environment \`${args[args.indexOf('--env') + 1]}\``);
    });
  }

  it('planned changes in every environment and applied each to its own cluster, organization and state', async () => {
    expect(ran.filter((r) => r.args[0] === 'plan').map((r) => r.code)).toEqual([2, 2, 2]);
    expect(ran.filter((r) => r.args[0] === 'apply').map((r) => r.code)).toEqual([0, 0, 0]);
    for (const [name, s] of Object.entries(sandboxes)) {
      const headers = { 'X-Nomad-Token': s.nomad.managementToken };
      const method = (await (await fetch(`${s.nomad.url}/v1/acl/auth-method/okta`, { headers })).json()) as { Config: { OIDCClientID: string } };
      expect(method.Config.OIDCClientID).toBe(`0oa1${name}`);
      const state = await fetch(`${s.nomad.url}/v1/var/converge/state/envs/${name}`, { headers });
      expect(state.status, `state of ${name} in its own Nomad`).toBe(200);
      for (const other of Object.keys(sandboxes).filter((o) => o !== name)) {
        expect((await fetch(`${s.nomad.url}/v1/var/converge/state/envs/${other}`, { headers })).status).toBe(404);
      }
    }
  });
});
