import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnCli, waitFor, workspacePerTest, type Workspace } from '../e2e/harness.js';

/*
 * Regression: Ctrl-C during a fleet upgrade printed "FAILED to upgrade … converge was interrupted" for the runs in
 * flight and "skipped: … the upgrade of <canary> failed" for the rest (so the rollout's failure budget fired), and a
 * workspace created whose first run was still being followed was "FAILED to create". An interrupt is its own
 * outcome: runs in flight are `cancelled` (still going on the service, the next apply follows them), the rest
 * "cancelled before it started", and a workspace created is reported created, its run not followed to the end.
 */

const workspace = workspacePerTest();
const TFE = ['tfe', 'settings.yaml', '--poll-interval', '50ms'];

async function applyAndInterrupt(ws: Workspace, when: RegExp): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawnCli(['apply', '--auto-approve', ...TFE], { cwd: ws.dir, env: ws.env });
  let stderr = '';
  let stdout = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
  await waitFor(() => when.test(stderr), 60_000, `${String(when)} on stderr`);
  child.kill('SIGINT');
  return { code: await exited, stdout, stderr };
}

describe('Ctrl-C is reported as cancelled, never as failures', () => {
  it('a workspace created while its first run was followed is reported created', async () => {
    const ws = await workspace({ copyExamples: true, sandbox: { stepDelayMs: 1000 } });
    const r = await applyAndInterrupt(ws, / run run-\S+ is /);
    expect(r.code).toBe(130);
    expect(r.stdout).not.toMatch(/FAILED/);
    expect(r.stdout).toMatch(/NoCodeWorkspace\/\S+\s+created ws-\S+ at \S+; its run was not followed to the end \(converge was interrupted; the next apply follows it\): http\S+\/runs\/run-/);
    expect(r.stderr).not.toMatch(/\d+ failed/);
  }, 120_000);

  it('upgrades in flight are cancelled, the rest cancelled before they started; no failure budget fires', async () => {
    const ws = await workspace({ copyExamples: true });
    // Three workspaces of one module: vpc-dev is the canary.
    const file = join(ws.dir, 'tfe', 'vpc.yaml');
    const text = await readFile(file, 'utf8');
    const dev = text.slice(text.indexOf('kind: NoCodeWorkspace'));
    await writeFile(file, [text, dev.replace('name: vpc-dev', 'name: vpc-prod'), dev.replace('name: vpc-dev', 'name: vpc-stage')].join('\n---\n'));
    expect((await ws.cli(['apply', '--auto-approve', ...TFE])).code).toBe(0);
    await writeFile(file, (await readFile(file, 'utf8')).replace('versionPin: 1.4.0', 'versionPin: 1.5.0'));
    ws.sandbox.tfe.control.setStepDelay(1000);

    const r = await applyAndInterrupt(ws, /upgrade run run-\S+ is /);
    expect(r.code).toBe(130);
    const out = r.stdout + r.stderr;
    expect(out).not.toMatch(/FAILED/);
    expect(out).not.toMatch(/the upgrade of \S+ (\(the canary\) )?failed/);
    expect(r.stdout).toMatch(/NoCodeWorkspace\/vpc-dev\s+cancelled: upgrade run; its run was not followed to the end/);
    expect(r.stdout).toMatch(/NoCodeWorkspace\/vpc-prod\s+skipped: cancelled before it started/);
    expect(r.stdout).toMatch(/NoCodeWorkspace\/vpc-stage\s+skipped: cancelled before it started/);
    expect(r.stdout).toMatch(/0 failed/);
    expect(r.stdout).toMatch(/1 cancelled/);

    // The rerun follows the same run and upgrades the rest.
    ws.sandbox.tfe.control.setStepDelay(5);
    const again = await ws.cli(['apply', '--auto-approve', ...TFE]);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(again.stderr).toMatch(/vpc-dev: resuming upgrade run run-/);
  }, 120_000);
});
