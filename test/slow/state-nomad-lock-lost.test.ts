import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAST, openWorld, type Shape, type World } from '../reliability/world.js';

/*
 * Regression: when every renewal of the Nomad Variables state lock failed with a 5xx, the
 * holder only warned and kept applying; another apply took the lock after the lease and both wrote.
 * Now the holder keeps a local deadline (last successful renewal + TTL): past it, it starts no further
 * changes, refuses state writes, says the lock was lost and exits 1. Through the built CLI with the
 * sandbox's `failLockRenewals` switch; the lease is converge's default 30 s, so this takes ~40 s.
 */

const TTL_MS = 30_000;
/** A change already under way when the lock is lost may finish its requests; nothing new starts. */
const IN_FLIGHT_MS = 5_000;

let world: World;
beforeAll(async () => {
  world = await openWorld({ seed: 162 });
});
afterAll(async () => world?.close());

describe('Nomad Variables state lock whose renewals fail', () => {
  it('the holder notices at its local deadline: no new remote work, no state write, "lock was lost", exit 1; the rerun converges', async () => {
    const small: Shape = { authMethods: 1, bindingRules: 0, modules: 1, workspacesPerModule: 1, state: 'nomad' };
    await world.writeShape(small);
    expect((await world.cli(['apply', '--auto-approve', ...FAST])).code).toBe(0);

    // Enough slow work to outlast the lease: 24 workspaces one at a time behind 700 ms of TFE latency.
    const big: Shape = { ...small, authMethods: 6, bindingRules: 3, modules: 4, workspacesPerModule: 6 };
    await world.writeShape(big);
    world.ws.sandbox.tfe.faults.set({ latencyMs: 700 });
    world.ws.sandbox.nomad.failLockRenewals(true);
    const from = world.ws.sandbox.log.entries().length;
    const started = Date.now();
    const a = await world.cli(['apply', '--auto-approve', '--parallelism', '1', ...FAST]);
    const tookMs = Date.now() - started;
    world.ws.sandbox.nomad.failLockRenewals(false);
    world.ws.sandbox.tfe.faults.set({ latencyMs: 0 });

    const log = world.ws.sandbox.log.entries().slice(from);
    const acquired = log.find((e) => e.query.includes('lock-acquire') && e.status === 200);
    expect(acquired).toBeDefined();
    const deadline = Date.parse(acquired?.at ?? '') + TTL_MS;
    const writesAfter = log.filter((e) => e.method !== 'GET' && !e.path.startsWith('/v1/var/') && Date.parse(e.at) > deadline + IN_FLIGHT_MS);
    const stateWritesAfter = log.filter((e) => e.path === '/v1/var/converge/state' && e.method === 'PUT' && Date.parse(e.at) > deadline + 1_000);
    const failedRenewals = log.filter((e) => e.fault === 'fail-renew').length;
    console.log(
      `lock lost: apply exit ${a.code} after ${Math.round(tookMs / 1000)} s; ${failedRenewals} renewals failed; ` +
        `remote writes started > ${IN_FLIGHT_MS / 1000} s after the deadline: ${writesAfter.length}; state writes after it: ${stateWritesAfter.length}`,
    );
    if (process.env.LOCK_LOST_DUMP) {
      const { writeFile } = await import('node:fs/promises');
      await writeFile(process.env.LOCK_LOST_DUMP, `${a.stdout}\n----\n${a.stderr}\n----\n${log.map((e) => `${e.at} ${e.method} ${e.path}?${e.query} ${e.status} ${e.fault ?? ''}`).join('\n')}`);
    }
    expect(a.code, a.stdout + a.stderr.slice(-2000)).toBe(1);
    expect(a.stderr).toMatch(/state lock on .* was lost: no lease renewal succeeded for 30 ?s/);
    // The changes left were not started (skipped), and the run ends with the lost lock as its error.
    expect(a.stdout).toMatch(/Apply complete: .*, [1-9]\d* skipped/);
    expect(a.stderr).toMatch(/^Error: The state lock .* was lost/m);
    expect(writesAfter.map((e) => `${e.method} ${e.path} at ${e.at} (deadline ${new Date(deadline).toISOString()})`)).toEqual([]);
    expect(stateWritesAfter.map((e) => `${e.method} ${e.path}${e.query} at ${e.at}`)).toEqual([]);

    const rerun = await world.cli(['apply', '--auto-approve', ...FAST]);
    expect(rerun.code, rerun.stderr.slice(-2000)).toBe(0);
    const plan = await world.cli(['plan', '--detailed-exitcode']);
    expect(plan.code, plan.stdout).toBe(0);
  }, 240_000);
});
