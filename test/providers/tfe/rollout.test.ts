import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyPlan, createPlan } from '../../../src/engine/index.js';
import { openStateStore } from '../../../src/state/state-store.js';
import { FAST, TfeWorld, doc } from './harness.js';

const lambda = (pin: string) => doc('NoCodeModule', 'lambda', { registryModule: 'acme/lambda/aws', versionPin: pin, enabled: true });
const fn = (name: string) =>
  doc('NoCodeWorkspace', name, { module: 'lambda', autoApply: true, variables: [{ key: 'function_name', value: name }] });
const NAMES = ['fn-a', 'fn-b', 'fn-c', 'fn-d'];
const INITIATE = /\/upgrade$/;

describe('TFE upgrade rollout', () => {
  let w: TfeWorld;
  beforeAll(async () => {
    w = await TfeWorld.start();
    const r = await w.converge([lambda('1.0.0'), ...NAMES.map(fn)]);
    expect(r.counts.failed).toBe(0);
  });
  afterAll(async () => w?.close());

  it('upgrades one canary first; when it fails, no other upgrade starts and the rest are skipped with the reason', async () => {
    w.sim.control.setNextRunOutcome('fn-a', 'errored');
    const before = w.count('POST', INITIATE);
    const result = await w.converge([lambda('1.1.0'), ...NAMES.map(fn)]);
    const byName = Object.fromEntries(result.outcomes.map((o) => [o.name, o]));
    expect(byName['fn-a']?.status).toBe('failed');
    for (const n of ['fn-b', 'fn-c', 'fn-d']) {
      expect(byName[n]?.status).toBe('skipped');
      expect(byName[n]?.detail).toEqual({ code: 'canary-failed', canary: 'fn-a', cause: 'tfe.run.failed' });
    }
    expect(w.count('POST', INITIATE) - before).toBe(1);
  });

  it('with a healthy canary, the rest upgrade in parallel and everything converges', async () => {
    const result = await w.converge([lambda('1.1.0'), ...NAMES.map(fn)]);
    expect(result.outcomes.filter((o) => o.kind === 'NoCodeWorkspace').map((o) => o.status)).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded']);
    const phases = w.reporter.events.filter((e) => e.code === 'tfe.run.phase' && e.data?.phase === 'applied');
    expect(phases.length).toBeGreaterThanOrEqual(4);
    const again = await w.plan([lambda('1.1.0'), ...NAMES.map(fn)]);
    expect(again.plan.changes.filter((c) => c.action !== 'no-op')).toEqual([]);
  });

  it('a run that outlives the run timeout fails clearly and stays recorded; the next apply resumes it', async () => {
    w.sim.control.setStepDelay(300);
    const before = w.count('POST', INITIATE);
    const slow = await w.converge([lambda('1.0.0'), ...NAMES.map(fn)], { options: { runTimeoutMs: 150 } });
    const canary = slow.outcomes.find((o) => o.name === 'fn-a');
    expect(canary?.error?.code).toBe('tfe.run.timeout');
    expect(canary?.message).toMatch(/did not finish within/);
    expect(canary?.runUrl).toMatch(/\/workspaces\/fn-a\/runs\/run-/);
    const inFlight = w.state.doc.records.find((r) => r.name === 'fn-a')?.inFlight;
    expect(inFlight?.purpose).toBe('upgrade');
    w.sim.control.setStepDelay(2);
    const fast = await w.converge([lambda('1.0.0'), ...NAMES.map(fn)]);
    expect(fast.counts.failed).toBe(0);
    // One initiate per workspace in all: the canary's run was resumed, not started again.
    expect(w.count('POST', INITIATE) - before).toBe(4);
  });

  it('refuses to delete a module while workspaces converge owns still use it', async () => {
    const run = await createPlan({
      desired: { objects: NAMES.map(fn), settings: { spec: {} } },
      providers: [w.provider],
      state: w.state.doc,
      ctx: w.ctx(),
      options: { targets: [{ kind: 'NoCodeModule', name: 'lambda' }] },
    });
    expect(run.plan.changes.map((c) => [c.name, c.action])).toEqual([['lambda', 'delete']]);
    const store = await openStateStore(w.state, { lock: true, operation: 'apply', lockTimeoutMs: 0 });
    try {
      const r = await applyPlan(run, { providers: [w.provider], store, ctx: w.ctx(), options: FAST });
      expect(r.outcomes[0]).toMatchObject({ name: 'lambda', status: 'failed' });
      expect(r.outcomes[0]?.error?.code).toBe('tfe.module.in-use');
      expect(r.outcomes[0]?.message).toMatch(/NoCodeWorkspace\/fn-a/);
    } finally {
      await store.close();
    }
    expect(w.count('DELETE', /\/no-code-modules\//)).toBe(0);
  });
});
