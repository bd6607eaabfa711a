import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNoCodeWorkspace, enableModule, latestRunId, runStatus, sleep, startSim, waitFor, waitForStatus, type Sim } from './helpers.js';

/** Statuses a run goes through, sampled by polling (a step is 5 ms, polls may skip some). */
async function trace(sim: Sim, runId: string, until: (s: string) => boolean): Promise<string[]> {
  const seen: string[] = [];
  await waitFor(async () => {
    const s = await runStatus(sim.user, runId);
    if (seen[seen.length - 1] !== s) seen.push(s);
    return until(s);
  }, `run ${runId}`);
  return seen;
}

const destroyRun = (wsId: string) => ({
  data: { type: 'runs', attributes: { 'is-destroy': true, message: 'destroy' }, relationships: { workspace: { data: { type: 'workspaces', id: wsId } } } },
});

describe('TFE sandbox: runs (RUN, docs/reference/hcp-terraform-api.md §3, §5)', () => {
  let sim: Sim;
  let ncm: string;
  beforeAll(async () => {
    sim = await startSim({ stepDelayMs: 5, stateProcessingMs: 200 });
    ncm = await enableModule(sim.user, 'vpc', { 'version-pin': '1.4.0', enabled: true });
  });
  afterAll(async () => sim.s.stop());

  it('auto-apply: the first run goes through the real states to applied, in order', async () => {
    // Long enough that a loaded machine still sees the first state before it moves on (40 ms missed 'pending' once).
    sim.s.control.setStepDelay(250);
    const ws = await createNoCodeWorkspace(sim.user, ncm, 'auto', { auto_apply: true });
    const run = await latestRunId(sim.user, ws);
    expect(run).toMatch(/^run-/);
    const seen = await trace(sim, run, (s) => s === 'applied');
    const order = ['pending', 'plan_queued', 'planning', 'planned', 'cost_estimating', 'cost_estimated', 'apply_queued', 'applying', 'applied'];
    expect(seen.every((s) => order.includes(s))).toBe(true);
    expect(seen.map((s) => order.indexOf(s))).toEqual([...seen.map((s) => order.indexOf(s))].sort((a, b) => a - b));
    expect(seen).toContain('pending');
    sim.s.control.setStepDelay(5);
    const r = await sim.user.get(`/runs/${run}`);
    expect(r.body.data).toMatchObject({
      type: 'runs',
      attributes: { status: 'applied', 'is-destroy': false, 'has-changes': true, actions: { 'is-confirmable': false, 'is-discardable': false } },
      relationships: { workspace: { data: { id: ws, type: 'workspaces' } } },
    });
    expect(Object.keys(r.body.data.attributes['status-timestamps'])).toEqual(expect.arrayContaining(['plan-queued-at', 'planned-at', 'applied-at']));
    const w = await sim.user.get(`/workspaces/${ws}`);
    expect(w.body.data.relationships['current-run'].data).toEqual({ id: run, type: 'runs' });
    expect(w.body.data.attributes['resource-count']).toBe(3);
  });

  it('without auto-apply the run waits confirmable; later runs stay pending behind it; apply 202 drives it', async () => {
    const ws = await createNoCodeWorkspace(sim.user, ncm, 'manual');
    const first = await latestRunId(sim.user, ws);
    await waitForStatus(sim.user, first, 'cost_estimated');
    const r = await sim.user.get(`/runs/${first}`);
    expect(r.body.data.attributes.actions).toMatchObject({ 'is-confirmable': true, 'is-discardable': true });
    const second = await sim.user.post('/runs', { data: { type: 'runs', attributes: {}, relationships: { workspace: { data: { type: 'workspaces', id: ws } } } } });
    expect(second.status).toBe(201);
    await sleep(40);
    expect(await runStatus(sim.user, second.body.data.id)).toBe('pending');
    // The pending run is the latest run but not the current one until it starts (RUN, run/manage).
    const rel = async () => (await sim.user.get(`/workspaces/${ws}`)).body.data.relationships;
    expect((await rel())['current-run'].data).toEqual({ id: first, type: 'runs' });
    expect((await rel())['latest-run'].data).toEqual({ id: second.body.data.id, type: 'runs' });
    expect((await sim.user.post(`/runs/${second.body.data.id}/actions/apply`)).status).toBe(409);
    const applied = await sim.user.post(`/runs/${first}/actions/apply`, { comment: 'go' });
    expect(applied.status).toBe(202);
    expect(applied.text).toBe('');
    await waitForStatus(sim.user, first, 'applied');
    const again = await sim.user.post(`/runs/${first}/actions/apply`);
    expect(again.status).toBe(409);
    expect(again.body.errors[0].status).toBe('409');
    // Now the second run starts and waits for its own confirmation; discard it.
    await waitForStatus(sim.user, second.body.data.id, 'cost_estimated');
    expect((await rel())['current-run'].data).toEqual({ id: second.body.data.id, type: 'runs' });
    expect((await sim.user.post(`/runs/${second.body.data.id}/actions/discard`)).status).toBe(202);
    expect(await runStatus(sim.user, second.body.data.id)).toBe('discarded');
    const list = await sim.user.get(`/workspaces/${ws}/runs`);
    expect(list.body.data.map((x: { id: string }) => x.id)).toEqual([second.body.data.id, first]);
    expect(list.body.meta.pagination['total-count']).toBe(2);
  });

  it('outcomes: errored at planning, no-changes, canceled, discarded', async () => {
    const cases: [string, string, 'errored' | 'no-changes' | 'canceled' | 'discarded'][] = [
      ['o-err', 'errored', 'errored'],
      ['o-none', 'planned_and_finished', 'no-changes'],
      ['o-cancel', 'canceled', 'canceled'],
      ['o-discard', 'discarded', 'discarded'],
    ];
    for (const [name, final, outcome] of cases) {
      sim.s.control.setNextRunOutcome(name, outcome);
      const ws = await createNoCodeWorkspace(sim.user, ncm, name, { auto_apply: true });
      const run = await latestRunId(sim.user, ws);
      const seen = await trace(sim, run, (s) => s === final);
      expect(seen).not.toContain('applied');
      if (outcome === 'no-changes') expect((await sim.user.get(`/runs/${run}`)).body.data.attributes['has-changes']).toBe(false);
      // Only the next run: another run succeeds.
      const next = await sim.user.post('/runs', { data: { type: 'runs', relationships: { workspace: { data: { type: 'workspaces', id: ws } } } } });
      await waitForStatus(sim.user, next.body.data.id, 'applied');
    }
  });

  it('a destroy run sets managed resources to 0, so safe-delete succeeds', async () => {
    const ws = await createNoCodeWorkspace(sim.user, ncm, 'destroy-me', { auto_apply: true });
    await waitForStatus(sim.user, await latestRunId(sim.user, ws), 'applied');
    expect((await sim.user.post(`/workspaces/${ws}/actions/safe-delete`)).status).toBe(409);
    const d = await sim.user.post('/runs', destroyRun(ws));
    expect(d.status).toBe(201);
    expect(d.body.data.attributes['is-destroy']).toBe(true);
    await waitForStatus(sim.user, d.body.data.id, 'applied');
    // The new state is processed first: a temporary 409 (docs/reference/hcp-terraform-api.md §5), then the delete goes through.
    const early = await sim.user.post(`/workspaces/${ws}/actions/safe-delete`);
    expect(early.status).toBe(409);
    expect(JSON.stringify(early.body)).toContain('Latest workspace state is being processed to discover resources, please try again later');
    await sleep(300);
    expect((await sim.user.post(`/workspaces/${ws}/actions/safe-delete`)).status).toBe(204);
  });

  it('organization tokens cannot create or apply runs; bad bodies 422; unknown runs 404', async () => {
    const ws = await createNoCodeWorkspace(sim.user, ncm, 'org-token-runs');
    expect((await sim.org.post('/runs', destroyRun(ws))).status).toBe(404);
    const run = await latestRunId(sim.user, ws);
    await waitForStatus(sim.user, run, 'cost_estimated');
    expect((await sim.org.post(`/runs/${run}/actions/apply`)).status).toBe(404);
    expect((await sim.org.get(`/runs/${run}`)).status).toBe(200);
    const noWs = await sim.user.post('/runs', { data: { type: 'runs', attributes: {} } });
    expect(noWs.status).toBe(422);
    expect(noWs.body.errors[0].source.pointer).toBe('/data/relationships/workspace');
    expect((await sim.user.post('/runs', destroyRun('ws-nope'))).status).toBe(404);
    expect((await sim.user.get('/runs/run-nope')).status).toBe(404);
    expect((await sim.user.post('/runs/run-nope/actions/apply')).status).toBe(404);
  });

  it('runs list is paginated', async () => {
    const ws = (await sim.user.post('/organizations/acme/workspaces', { data: { type: 'workspaces', attributes: { name: 'many-runs', 'auto-apply': true } } })).body.data.id;
    for (let i = 0; i < 7; i++) await sim.user.post('/runs', destroyRun(ws));
    const p1 = await sim.user.get(`/workspaces/${ws}/runs?page[size]=5`);
    expect(p1.body.data).toHaveLength(5);
    expect(p1.body.meta.pagination).toMatchObject({ 'total-count': 7, 'total-pages': 2, 'next-page': 2 });
    const p2 = await sim.user.get(p1.body.links.next);
    expect(p2.body.data).toHaveLength(2);
  });

  it('organization concurrency: runs beyond it wait at plan_queued until a slot frees; the workspace list includes current runs', async () => {
    sim.s.control.setStepDelay(60);
    sim.s.control.setRunConcurrency(1);
    try {
      const a = await createNoCodeWorkspace(sim.user, ncm, 'conc-a', { auto_apply: true });
      const b = await createNoCodeWorkspace(sim.user, ncm, 'conc-b', { auto_apply: true });
      const [ra, rb] = [await latestRunId(sim.user, a), await latestRunId(sim.user, b)];
      // Sampled at one instant (one workspace list with the current runs: two reads in a row could see a's
      // `applying` and then, a moment later, b's `planning` after a finished): never both planning or applying.
      const busy = new Set(['planning', 'applying']);
      let both = 0;
      let queuedB = 0;
      const statuses = async (): Promise<[string, string]> => {
        const list = await sim.user.get('/organizations/acme/workspaces?include=current_run&page[size]=100');
        const runs = new Map((list.body.included as { id: string; attributes: { status: string } }[]).map((r) => [r.id, r.attributes.status]));
        return [runs.get(ra) ?? 'none', runs.get(rb) ?? 'none'];
      };
      await waitFor(async () => {
        const [sa, sb] = await statuses();
        if (busy.has(sa) && busy.has(sb)) both++;
        if (sb === 'plan_queued' || sb === 'apply_queued') queuedB++;
        return sa === 'applied' && sb === 'applied';
      }, 'both runs applied');
      expect(both).toBe(0);
      expect(queuedB).toBeGreaterThan(0);
      const list = await sim.user.get('/organizations/acme/workspaces?include=current_run&page[size]=100');
      const included = new Map((list.body.included as { id: string; attributes: { status: string } }[]).map((r) => [r.id, r.attributes.status]));
      expect(included.get(ra)).toBe('applied');
      expect(included.get(rb)).toBe('applied');
    } finally {
      sim.s.control.setRunConcurrency(0);
      sim.s.control.setStepDelay(5);
    }
  });
});
