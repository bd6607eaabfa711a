import { afterAll, beforeAll, expect } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { assertBuilt, cleanEnv, EXAMPLE_SECRETS, runCli, tempProject } from './run-cli.js';

/**
 * A sandbox and a project with examples/tfe/vpc.yaml, applied once (the workspace exists with its
 * secret), for the tests of what happens to that workspace next. Call inside a `describe`.
 */
export function appliedVpcWorkspace(): { sandbox: () => Sandbox; dir: () => string; env: () => NodeJS.ProcessEnv } {
  let sandbox: Sandbox | undefined;
  let project: { dir: string; cleanup: () => Promise<void> } | undefined;
  const dir = () => project?.dir ?? '';
  const env = () => cleanEnv(dir(), { ...(sandbox?.env ?? {}), ...EXAMPLE_SECRETS, NO_COLOR: '1' });
  beforeAll(async () => {
    assertBuilt();
    sandbox = await startSandbox({ stepDelayMs: 5, stateProcessingMs: 5 });
    project = await tempProject(['tfe/vpc.yaml']);
    const first = await runCli(['apply', '--auto-approve', 'tfe'], project.dir, env());
    expect(first.code, first.stdout + first.stderr).toBe(0);
  });
  afterAll(async () => {
    await sandbox?.stop();
    await project?.cleanup();
  });
  return { sandbox: () => sandbox as Sandbox, dir, env };
}
