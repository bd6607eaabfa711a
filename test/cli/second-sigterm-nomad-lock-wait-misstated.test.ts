import { afterEach, describe, expect, it } from 'vitest';
import { openWorkspace, spawnCli, waitFor, type Workspace } from '../e2e/harness.js';

/*
 * Regression: a second SIGTERM during an apply on the Nomad Variables backend said "the next run takes
 * it over once this process is gone", which is true of the local file lock only: on Nomad the next run
 * waits 2 × the lease plus Nomad's lock delay. The message now names the lock id, `converge state
 * unlock <id>`, and the real wait; on the local backend it names the takeover. Each write to Nomad takes 1.5 s
 * (the reads before them none), so both signals land while a change is in flight.
 */
let ws: Workspace | undefined;
afterEach(async () => {
  ws?.sandbox.nomad.faults.reset();
  await ws?.close();
  ws = undefined;
});

const NOMAD_STATE_SETTINGS = `kind: Settings
name: settings
spec:
  tfe: { organization: acme }
  state: { backend: nomad, path: converge/state }
`;

async function stopTwice(w: Workspace, sig: NodeJS.Signals): Promise<{ code: number | null; stderr: string }> {
  const child = spawnCli(['apply', '--auto-approve', 'nomad', 'settings.yaml'], { cwd: w.dir, env: w.env });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
  await waitFor(() => w.sandbox.log.writes('nomad').some((e) => e.status === 200 && e.path.startsWith('/v1/acl/')), 60_000, 'the first write');
  child.kill(sig);
  await waitFor(() => stderr.includes(`${sig} received`), 10_000, 'the first stop to be acknowledged');
  child.kill(sig);
  return { code: await exited, stderr };
}

describe('a second SIGTERM says what becomes of the state lock', () => {
  it('Nomad backend: the lock id, `converge state unlock`, and the real wait (2 × the lease + the lock delay)', async () => {
    ws = await openWorkspace({ copyExamples: true });
    await ws.write('settings.yaml', NOMAD_STATE_SETTINGS);
    ws.sandbox.nomad.faults.set({ writeLatencyMs: 1500 });
    const r = await stopTwice(ws, 'SIGTERM');
    expect(r.code).toBe(143);
    const id = /The state lock is left behind \(id ([^)]+)\)/.exec(r.stderr)?.[1];
    expect(id, r.stderr).toBeDefined();
    expect(r.stderr).toContain(`\`converge state unlock ${id}\``);
    expect(r.stderr).toContain("within 1 min 15 s of its last renewal (2 × the 30s lease, then Nomad's 15s lock delay)");
    expect(r.stderr).not.toContain('takes it over once this process is gone');

    ws.sandbox.nomad.faults.reset();
    const unlock = await ws.cli(['state', 'unlock', id as string, 'settings.yaml']);
    expect(unlock.code, unlock.stderr).toBe(0);
    // What the stopped run sent a create for is marked in the state before it was sent: the rerun takes it as
    // its own without --adopt-all (docs/decisions.md §28).
    const rerun = await ws.cli(['apply', '--auto-approve', 'nomad', 'settings.yaml']);
    expect(rerun.code, rerun.stderr).toBe(0);
  }, 120_000);

  it('local backend: the lock id and the takeover by the next run', async () => {
    ws = await openWorkspace({ copyExamples: true });
    ws.sandbox.nomad.faults.set({ writeLatencyMs: 1500 });
    const r = await stopTwice(ws, 'SIGTERM');
    expect(r.code).toBe(143);
    expect(r.stderr).toMatch(/The state lock is left behind \(id [^)]+\): the next run on .+ takes it over once this process is gone/);
  }, 120_000);
});
