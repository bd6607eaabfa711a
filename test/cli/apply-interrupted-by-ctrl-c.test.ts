import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openWorkspace, REPO, spawnCli, waitFor, type Workspace } from '../e2e/harness.js';

/*
 * Ctrl-C during apply said nothing, exited 130 at once and left the state lock and a
 * half-drawn status line behind. Now the first SIGINT (or SIGTERM) lets the change in flight finish,
 * starts nothing new, saves the state, releases the lock, says what was done and what was left, and
 * exits 130 (143 for SIGTERM); the rerun finishes the rest without duplicates.
 */

const NOMAD = ['nomad', 'settings.yaml'];

let ws: Workspace | undefined;
afterEach(async () => {
  ws?.sandbox.nomad.faults.reset();
  await ws?.close();
  ws = undefined;
});

interface Stopped {
  code: number | null;
  stderr: string;
  stdout: string;
}

/**
 * Starts `apply`, sends `sig` once the first change is written on the service (and once more after
 * the CLI acknowledged it when `twice`), and waits for the exit.
 */
async function applyAndStop(w: Workspace, sig: NodeJS.Signals, twice = false): Promise<Stopped> {
  const child = spawnCli(['apply', '--auto-approve', ...NOMAD], { cwd: w.dir, env: w.env });
  let stderr = '';
  let stdout = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
  // Only writes are slowed: the reads before the first write (the identity probe, the ACL lists) take no extra time.
  await waitFor(() => w.sandbox.log.writes('nomad').some((e) => e.status === 200), 60_000, 'the first write');
  child.kill(sig);
  if (twice) {
    await waitFor(() => stderr.includes(`${sig} received`), 10_000, 'the first stop to be acknowledged');
    child.kill(sig);
  }
  const code = await exited;
  return { code, stderr, stdout };
}

/** The Nomad documents of examples/ (policies, roles, auth methods, binding rules): one create each. */
const NOMAD_OBJECTS = readdirSync(join(REPO, 'examples', 'nomad'))
  .map((f) => readFileSync(join(REPO, 'examples', 'nomad', f), 'utf8').match(/^kind: (?!NomadLoginTest)/gm)?.length ?? 0) // login tests are checked, never created
  .reduce((a, b) => a + b, 0);

describe('Ctrl-C during apply', () => {
  it('finishes the change in flight, saves the state, releases the lock, says what is left, exits 130; the rerun converges', async () => {
    ws = await openWorkspace({ copyExamples: true });
    // Every write takes 400 ms (the reads before them none), so the stop lands while changes are still to come.
    ws.sandbox.nomad.faults.set({ writeLatencyMs: 400 });
    const r = await applyAndStop(ws, 'SIGINT');

    expect(r.code).toBe(130);
    expect(r.stderr).toContain('SIGINT received: finishing the request in flight, then saving the state and releasing the lock');
    expect(r.stderr).toMatch(/Interrupted: \d of \d+ changes done; not started: Nomad/);
    expect(r.stderr).toContain('Stopped by SIGINT: what was done is recorded in the state, and the lock is released. Run `converge apply` again to do the rest.');
    expect(r.stdout).toContain('cancelled');
    // The lock is released, and what was done is recorded.
    expect(existsSync(join(ws.dir, '.converge', 'state.json.lock'))).toBe(false);
    const state = JSON.parse(readFileSync(join(ws.dir, '.converge', 'state.json'), 'utf8')) as { records: unknown[] };
    const done = ws.sandbox.log.writes('nomad').filter((e) => e.status === 200).length;
    expect(done).toBeGreaterThanOrEqual(1);
    expect(done).toBeLessThan(NOMAD_OBJECTS);
    expect(state.records).toHaveLength(done);

    ws.sandbox.nomad.faults.reset();
    // What the stopped run sent a create for is marked in the state before it was sent: the rerun takes it as
    // its own without --adopt-all (docs/decisions.md §28).
    const again = await ws.cli(['apply', '--auto-approve', ...NOMAD]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toContain('lock');
    // Every object was created exactly once across both runs.
    expect(ws.sandbox.log.writes('nomad').filter((e) => e.status === 200)).toHaveLength(NOMAD_OBJECTS);
    const plan = await ws.cli(['plan', '--detailed-exitcode', ...NOMAD]);
    expect(plan.code).toBe(0);
  });

  it('SIGTERM stops the same way with 143', async () => {
    ws = await openWorkspace({ copyExamples: true });
    ws.sandbox.nomad.faults.set({ writeLatencyMs: 400 });
    const r = await applyAndStop(ws, 'SIGTERM');
    expect(r.code).toBe(143);
    expect(r.stderr).toContain('Stopped by SIGTERM:');
    expect(existsSync(join(ws.dir, '.converge', 'state.json.lock'))).toBe(false);
  });

  it('a second Ctrl-C exits at once, leaving the lock; the next apply takes it over and converges', async () => {
    ws = await openWorkspace({ copyExamples: true });
    // Long enough that the second Ctrl-C surely comes while the write in flight is still waited for.
    ws.sandbox.nomad.faults.set({ writeLatencyMs: 3000 });
    const r = await applyAndStop(ws, 'SIGINT', true);
    expect(r.code).toBe(130);
    expect(r.stderr).toContain('SIGINT again: exiting at once. The state lock is left behind');
    expect(r.stderr).not.toContain('Stopped by SIGINT');
    expect(existsSync(join(ws.dir, '.converge', 'state.json.lock'))).toBe(true);

    ws.sandbox.nomad.faults.reset();
    // What the stopped run sent a create for is marked in the state before it was sent: the rerun takes it as
    // its own without --adopt-all (docs/decisions.md §28).
    const again = await ws.cli(['apply', '--auto-approve', ...NOMAD]);
    expect(again.code, again.stderr).toBe(0);
    expect((await ws.cli(['plan', '--detailed-exitcode', ...NOMAD])).code).toBe(0);
  });

  it('during an HCP Terraform run: stops following it, records it in flight, exits 130; the rerun resumes that run', async () => {
    // Each run state lasts 1 s, so the first runs are still going when the stop comes.
    ws = await openWorkspace({ copyExamples: true, sandbox: { stepDelayMs: 1000 } });
    const tfe = ['tfe', 'settings.yaml', '--poll-interval', '50ms'];
    const child = spawnCli(['apply', '--auto-approve', ...tfe], { cwd: ws.dir, env: ws.env });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
    await waitFor(() => / run run-\S+ is /.test(stderr), 30_000, 'a run being followed');
    child.kill('SIGINT');
    const code = await exited;

    expect(code).toBe(130);
    expect(stderr).toMatch(/Interrupted: .*still running on the service \(the next apply follows the same run\): NoCodeWorkspace\//);
    expect(stderr).not.toMatch(/\d+ failed/);
    expect(existsSync(join(ws.dir, '.converge', 'state.json.lock'))).toBe(false);
    const creates = () => ws?.sandbox.log.writes('tfe').filter((e) => e.method === 'POST' && e.path.endsWith('/workspaces')).length ?? 0;
    const workspacesCreated = creates();

    // The stop has landed: the runs may now step quickly (the one in flight keeps the step it is on).
    ws.sandbox.tfe.control.setStepDelay(25);
    const again = await ws.cli(['apply', '--auto-approve', ...tfe]);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/resuming provision run run-/);
    // No workspace was created twice.
    expect(creates()).toBe(2);
    expect(workspacesCreated).toBeGreaterThanOrEqual(1);
    expect((await ws.cli(['plan', '--detailed-exitcode', 'tfe', 'settings.yaml'])).code).toBe(0);
  });
});
