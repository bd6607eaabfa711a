import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { CI_DIR, nomadJobCommands, REPO, workflowCommands } from './extract.js';

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
    await cp(join(REPO, 'examples'), dir, { recursive: true, filter: (p) => p !== CI_DIR && !p.startsWith(ciPrefix) });
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
