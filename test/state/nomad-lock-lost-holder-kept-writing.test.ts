import { describe, expect, it } from 'vitest';
import { applying, planning, storyPerTest, type Story } from '../library/story.js';
import { EXTRA_VERSIONS, manifests, REGISTRY, type Shape } from '../reliability/world.js';

/*
 * Regression: when every renewal of the Nomad Variables state lock failed with a 5xx, the
 * holder only warned and kept applying; another apply took the lock after the lease and both wrote.
 * Now the holder keeps a local deadline (last successful renewal + TTL): past it, it starts no further
 * changes, refuses state writes, says the lock was lost and exits 1. The apply command's own code runs in-process
 * (`Story.run`) with the sandbox's `failLockRenewals` switch; the lease is converge's default 30 s and the
 * simulators' latency, the renewals and the local deadline all wait on the story's ManualClock, so the
 * 30 s lease and the 700 ms answers take no real time.
 */

const TTL_MS = 30_000;
/** A change already under way when the lock is lost may finish its requests; nothing new starts. */
const IN_FLIGHT_MS = 5_000;
const FAST = { pollInterval: '20ms', runTimeout: '60s' };

const story = storyPerTest();

async function writeShape(s: Story, shape: Shape): Promise<void> {
  for (const [file, text] of Object.entries(manifests(shape))) await s.write(file, text);
}

describe('Nomad Variables state lock whose renewals fail', () => {
  it('the holder notices at its local deadline: no new remote work, no state write, "lock was lost", exit 1; the rerun converges', async () => {
    const s = await story({ sandbox: { rateLimit: false } });
    for (const name of REGISTRY.slice(2)) for (const v of EXTRA_VERSIONS) s.sandbox.tfe.control.publishModuleVersion('acme', name, 'aws', v);
    const small: Shape = { authMethods: 1, bindingRules: 0, modules: 1, workspacesPerModule: 1, state: 'nomad' };
    await writeShape(s, small);
    const first = await s.run(applying(FAST));
    expect(first.code, first.stderr).toBe(0);

    // Enough slow work to outlast the lease: 24 workspaces one at a time behind 700 ms of TFE latency.
    const big: Shape = { ...small, authMethods: 6, bindingRules: 3, modules: 4, workspacesPerModule: 6 };
    await writeShape(s, big);
    s.sandbox.tfe.faults.set({ latencyMs: 700 });
    s.sandbox.nomad.failLockRenewals(true);
    const from = s.sandbox.log.entries().length;
    const started = s.clock.now();
    const a = await s.run(applying({ ...FAST, parallelism: '1' }));
    const tookMs = s.clock.now() - started;
    s.sandbox.nomad.failLockRenewals(false);
    s.sandbox.tfe.faults.set({ latencyMs: 0 });

    const log = s.sandbox.log.entries().slice(from);
    const acquired = log.find((e) => e.query.includes('lock-acquire') && e.status === 200);
    expect(acquired).toBeDefined();
    const deadline = Date.parse(acquired?.at ?? '') + TTL_MS;
    const writesAfter = log.filter((e) => e.method !== 'GET' && !e.path.startsWith('/v1/var/') && Date.parse(e.at) > deadline + IN_FLIGHT_MS);
    const stateWritesAfter = log.filter((e) => e.path === '/v1/var/converge/state' && e.method === 'PUT' && Date.parse(e.at) > deadline + 1_000);
    const failedRenewals = log.filter((e) => e.fault === 'fail-renew').length;
    console.log(
      `lock lost: apply exit ${a.code} after ${Math.round(tookMs / 1000)} s on the clock; ${failedRenewals} renewals failed; ` +
        `remote writes started > ${IN_FLIGHT_MS / 1000} s after the deadline: ${writesAfter.length}; state writes after it: ${stateWritesAfter.length}`,
    );
    expect(tookMs, 'the apply outlasted the lease').toBeGreaterThan(TTL_MS);
    expect(failedRenewals, 'renewals were tried and failed').toBeGreaterThan(0);
    expect(a.code, a.stdout + a.stderr.slice(-2000)).toBe(1);
    expect(a.stderr).toMatch(/state lock on .* was lost: no lease renewal succeeded for 30 ?s/);
    // The changes left were not started (skipped), and the run ends with the lost lock as its error.
    expect(a.stdout).toMatch(/Apply complete: .*, [1-9]\d* skipped/);
    expect(a.stderr).toMatch(/^Error: The state lock .* was lost/m);
    expect(writesAfter.map((e) => `${e.method} ${e.path} at ${e.at} (deadline ${new Date(deadline).toISOString()})`)).toEqual([]);
    expect(stateWritesAfter.map((e) => `${e.method} ${e.path}${e.query} at ${e.at}`)).toEqual([]);

    const rerun = await s.run(applying(FAST));
    expect(rerun.code, rerun.stderr.slice(-2000)).toBe(0);
    const plan = await s.run(planning({ detailedExitcode: true }));
    expect(plan.code, plan.stdout).toBe(0);
  });
});
