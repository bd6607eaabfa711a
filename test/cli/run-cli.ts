import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';

/** Runs the built CLI (dist/cli/main.js; `npm run build` first, as `npm test` does). */

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
export const CLI = join(REPO, 'dist', 'cli', 'main.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function assertBuilt(): void {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` before these tests`);
}

/** `onStderr` sees stderr as it grows, so a test can act at a moment the CLI announces. */
export function runCli(args: string[], cwd: string, env: NodeJS.ProcessEnv, onStderr?: (soFar: string) => void): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
      onStderr?.(stderr);
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/**
 * The test process's environment without anything that would change the CLI's behaviour
 * (GitHub Actions variables, a developer's NOMAD_* / TFE_* / TF_* credentials), and a temp HOME.
 */
export function cleanEnv(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(GITHUB_|NOMAD_|TFE_|TF_|CONVERGE_|NO_COLOR$|FORCE_COLOR$)/.test(k)) continue;
    env[k] = v;
  }
  return { ...env, HOME: home, ...extra };
}

/** A temp directory with a copy of some of examples/ (relative paths), removed by the returned function. */
export async function tempProject(copy: string[]): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'converge-cli-'));
  for (const rel of copy) await cp(join(REPO, 'examples', rel), join(dir, rel), { recursive: true });
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** A sandbox and a temp copy of some of examples/ shared by the tests of one describe block. */
export interface SandboxProject {
  readonly sandbox: Sandbox;
  readonly dir: string;
  /** A clean environment (cleanEnv) pointing at the sandbox, with the examples' secrets, then `extra`. */
  env(extra?: Record<string, string>): NodeJS.ProcessEnv;
}

/**
 * Call in a describe block: the built CLI is checked, a sandbox started and `copy` (paths in examples/) copied
 * before its tests; the sandbox is stopped and the copy removed after them. Read `sandbox` and `dir` in tests
 * and hooks (a later beforeAll of the block sees them).
 */
export function sandboxProject(copy: string[]): SandboxProject {
  let sandbox: Sandbox | undefined;
  let project: { dir: string; cleanup: () => Promise<void> } | undefined;
  beforeAll(async () => {
    assertBuilt();
    sandbox = await startSandbox({ stepDelayMs: 5 });
    project = await tempProject(copy);
  });
  afterAll(async () => {
    await sandbox?.stop();
    await project?.cleanup();
  });
  const ready = () => {
    if (!sandbox || !project) throw new Error('sandboxProject: read it in a test or a hook, after its beforeAll');
    return { sandbox, project };
  };
  return {
    get sandbox() {
      return ready().sandbox;
    },
    get dir() {
      return ready().project.dir;
    },
    env(extra = {}) {
      const { sandbox: s, project: p } = ready();
      return cleanEnv(p.dir, { ...s.env, ...EXAMPLE_SECRETS, ...extra });
    },
  };
}

/**
 * Values for the secrets the example manifests reference with fromEnv. No run of 8 characters of them is a
 * variable's key (`db_password`): output masks any such run of a secret.
 */
export const EXAMPLE_SECRETS = { OKTA_CLIENT_SECRET: 'cli-test-okta-secret-Zq81', VPC_DB_PASSWORD: 'cli-test-vpc-Kx93Tq-Zq81' };

/** How many progress lines each HCP Terraform run printed (`… run run-… is planning`), by run id. */
export function linesPerRun(lines: readonly string[]): Map<string, number> {
  const perRun = new Map<string, number>();
  for (const l of lines) {
    const run = / run (run-\S+) is /.exec(l)?.[1];
    if (run) perRun.set(run, (perRun.get(run) ?? 0) + 1);
  }
  return perRun;
}
