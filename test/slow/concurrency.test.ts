import { describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { spawnCli, waitFor } from '../e2e/harness.js';
import { FAST, openWorld, type Shape } from '../reliability/world.js';

/*
 * Concurrency: two applies at once on the same state. The second either refuses at once,
 * naming the lock holder, or waits (--lock-timeout) and then applies; nothing is corrupted: the state
 * parses and everything converges. Once for the local file backend, once for Nomad Variables.
 * ~28 s on 2 cores (slow runs keep the first apply holding the lock), so it runs in test:slow.
 */

const FIRST: Shape = { authMethods: 3, bindingRules: 1, modules: 2, workspacesPerModule: 3 };
const SECOND: Shape = { authMethods: 4, bindingRules: 2, modules: 2, workspacesPerModule: 4 };

function collect(child: ChildProcess): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve) => child.on('close', (c) => resolve({ code: c ?? -1, stdout, stderr })));
}

for (const backend of ['local', 'nomad'] as const) {
  describe(`two applies at once on one ${backend} state`, () => {
    it('one refuses naming the holder, one waits for the lock; afterwards the state parses and everything converges', async () => {
      const world = await openWorld({ seed: backend === 'local' ? 11 : 12 });
      try {
        await world.writeShape({ ...FIRST, state: backend });
        // Slow runs and slow HCP Terraform writes keep the first apply (and its lock) busy until the refused apply
        // has asked for the lock: on a busy machine the other two processes take seconds just to start.
        world.ws.sandbox.tfe.control.setStepDelay(250);
        world.ws.sandbox.tfe.faults.set({ writeLatencyMs: 2000 });
        const started = Date.now();
        const first = spawnCli(['apply', '--auto-approve', ...FAST], { cwd: world.ws.dir, env: world.env });
        let firstOut = '';
        first.stdout.setEncoding('utf8').on('data', (d: string) => (firstOut += d));
        first.stderr.setEncoding('utf8').on('data', (d: string) => (firstOut += d));
        const firstDone = new Promise<number>((resolve) => first.on('close', (c) => resolve(c ?? -1)));
        // The lock is taken before live state is read; a workspace create means it is mid-apply.
        await waitFor(() => world.ws.sandbox.log.entries({ service: 'tfe', method: 'POST' }).some((e) => e.path.endsWith('/workspaces')), 20_000, 'the first apply to create a workspace');

        // New manifests (the first apply has read its own), then a refusing and a waiting apply at once.
        await world.writeShape({ ...SECOND, state: backend });
        const waitingChild = spawnCli(['apply', '--auto-approve', '--lock-timeout', '60s', ...FAST], { cwd: world.ws.dir, env: world.env });
        const waiting = collect(waitingChild);
        const refused = await world.cli(['apply', '--auto-approve', ...FAST]);
        expect(refused.code).toBe(1);
        expect(refused.stderr).toMatch(/lock/i);
        // Names the holder: its pid and operation (and host). On a busy machine the first apply may already have
        // handed the lock to the waiting one, which is then the holder.
        const holders = [first.pid, waitingChild.pid].map(String);
        expect(holders.some((pid) => refused.stderr.includes(pid)), `${refused.stderr} names one of ${holders.join(', ')}`).toBe(true);
        expect(refused.stderr).toMatch(/apply/);
        world.ws.sandbox.tfe.faults.set({ writeLatencyMs: 0 });
        const waited = await waiting;
        const firstCode = await firstDone;
        console.log(
          `concurrency (${backend}): first apply exit ${firstCode}, refused apply exit ${refused.code}, waiting apply exit ${waited.code} after ${Date.now() - started} ms`,
        );
        expect(firstCode, firstOut).toBe(0);
        expect(waited.stderr).toMatch(/Waiting up to 1m.*--lock-timeout/);
        expect(waited.stderr).toContain('Got the state lock');
        expect(waited.code, waited.stdout + waited.stderr).toBe(0);

        world.ws.sandbox.tfe.control.setStepDelay(5);
        const p = await world.cli(['plan', '--detailed-exitcode']);
        expect(p.stdout).toContain('No changes');
        expect(p.code).toBe(0);
        if (backend === 'local') {
          const doc = JSON.parse(await readFile(join(world.ws.dir, '.converge', 'state.json'), 'utf8')) as { records: unknown[] };
          expect(doc.records.length).toBe(4 + 2 + 2 + 8);
        } else {
          const list = await world.cli(['state', 'list']);
          expect(list.code, list.stderr).toBe(0);
          expect(list.stdout.trim().split('\n').filter((l) => /Nomad|NoCode/.test(l))).toHaveLength(4 + 2 + 2 + 8);
        }
      } finally {
        await world.close();
      }
    }, 90_000);
  });
}
