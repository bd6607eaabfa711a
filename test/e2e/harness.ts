import { spawn } from 'node:child_process';
import { cp, mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
export const CLI = join(REPO, 'dist', 'cli', 'main.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** A temp working directory with manifests, a sandbox, and a way to run the built CLI against it. */
export interface Workspace {
  dir: string;
  sandbox: Sandbox;
  env: Record<string, string>;
  write(file: string, text: string): Promise<void>;
  cli(args: string[], extraEnv?: Record<string, string>, input?: string): Promise<CliResult>;
  close(): Promise<void>;
}

export interface OpenOptions {
  sandbox?: SandboxOptions;
  copyExamples?: boolean;
  env?: Record<string, string>;
}

/** A fresh directory, holding a copy of examples/ (without its CI workflows) when asked. */
export async function storyDir(prefix: string, copyExamples = false): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  if (copyExamples) await cp(join(REPO, 'examples'), dir, { recursive: true, filter: (p) => !p.includes(join(REPO, 'examples', 'ci')) });
  return dir;
}

/** What a story's converge runs with: the sandbox's addresses and tokens, and the secrets the examples read. */
export function storyEnv(dir: string, sandboxEnv: Record<string, string>, extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: dir, ...sandboxEnv, OKTA_CLIENT_SECRET: 'e2e-okta-secret-Zq81', VPC_DB_PASSWORD: 'e2e-vpc-Pw4Rk7-Zq81', ...extra };
}

export async function openWorkspace(opts: OpenOptions = {}): Promise<Workspace> {
  const dir = await storyDir('converge-e2e-', opts.copyExamples);
  const sandbox = await startSandbox({ stepDelayMs: 5, ...opts.sandbox });
  const env = storyEnv(dir, sandbox.env, opts.env);
  return {
    dir,
    sandbox,
    env,
    async write(file, text) {
      await mkdir(dirname(join(dir, file)), { recursive: true });
      await writeFile(join(dir, file), text);
    },
    cli: (args, extraEnv, input) => runCli(args, { cwd: dir, env: { ...env, ...extraEnv } }, input),
    async close() {
      await sandbox.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * One workspace per test, closed (its sandbox stopped, its directory removed) after the test whatever
 * it did: `const workspace = workspacePerTest();` in the file, then `const ws = await workspace();`.
 */
export function workspacePerTest(): (opts?: OpenOptions) => Promise<Workspace> {
  let current: Workspace | undefined;
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return async (opts) => (current = await openWorkspace(opts));
}

/** A request to the HCP Terraform sandbox's API with converge's token: a test's own look, or a change made outside converge. */
export async function tfeApi(ws: Pick<Workspace, 'env'>, method: 'GET' | 'DELETE', path: string): Promise<{ status: number; body: unknown }> {
  const r = await fetch(`${ws.env.TFE_ADDRESS}/api/v2${path}`, {
    method,
    headers: { Authorization: `Bearer ${ws.env.TFE_TOKEN}`, Accept: 'application/vnd.api+json', 'Content-Type': 'application/vnd.api+json' },
  });
  const text = await r.text();
  return { status: r.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

export function runCli(args: string[], opts: { cwd: string; env: Record<string, string> }, input?: string): Promise<CliResult> {
  return runProcess(process.execPath, [CLI, ...args], opts, input);
}

/** Any command (the CLI under a wrapper such as `bash -c 'ulimit …; exec node …'`), with its output collected. */
export function runProcess(command: string, args: string[], opts: { cwd: string; env: Record<string, string> }, input?: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: opts.cwd, env: opts.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    if (input !== undefined) child.stdin.end(input);
    else child.stdin.end();
  });
}

/** Starts the CLI and hands back the child, for tests that kill it mid-run. */
export function spawnCli(args: string[], opts: { cwd: string; env: Record<string, string> }) {
  return spawn(process.execPath, [CLI, ...args], { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
}

export async function waitFor(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * Makes ACL policies (each granting read in the default namespace) and roles in the Nomad sandbox, as
 * someone outside converge would: binding rules that bind them by name then plan (a rule binding a
 * role or policy that exists nowhere is refused). Clears the request log afterwards.
 */
export async function seedNomadAcl(ws: Workspace, acl: { policies: string[]; roles?: { name: string; policies: string[] }[] }): Promise<void> {
  const post = async (path: string, body: unknown): Promise<void> => {
    const r = await fetch(`${ws.sandbox.nomad.url}${path}`, { method: 'POST', headers: { 'X-Nomad-Token': ws.sandbox.nomad.managementToken }, body: JSON.stringify(body) });
    if (r.status !== 200) throw new Error(`seeding ${path}: ${r.status} ${await r.text()}`);
  };
  for (const name of acl.policies) await post(`/v1/acl/policy/${name}`, { Name: name, Rules: 'namespace "default" { policy = "read" }' });
  for (const role of acl.roles ?? []) await post('/v1/acl/role', { Name: role.name, Policies: role.policies.map((p) => ({ Name: p })) });
  ws.sandbox.log.clear();
}

/**
 * A story's "given": the manifests as written applied by the CLI (extra flags such as poll intervals
 * appended), then the request log cleared, so the test that follows sees only its own requests.
 */
export async function givenApplied(ws: Workspace, extraArgs: string[] = [], extraEnv?: Record<string, string>): Promise<void> {
  const a = await ws.cli(['apply', '--auto-approve', ...extraArgs], extraEnv);
  if (a.code !== 0) throw new Error(`setting up: apply exited ${a.code}\n${a.stderr}`);
  ws.sandbox.log.clear();
}
