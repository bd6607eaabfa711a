import { afterEach, describe, expect, it } from 'vitest';
import { LOCAL_STATE_SETTINGS, noCodeFleet } from './manifests.js';
import { openWorkspace, type Workspace } from './harness.js';

/*
 * The sweep gap, through the built CLI against the sandbox: a run queued on a workspace whose current run has
 * ended stays `pending` and is not the workspace's current run until it starts (RUN). The run sweep answered the
 * pending-run check before an upgrade from the current run alone ("ended, so nothing in flight") and initiated the
 * upgrade on top of that pending run. The workspace's `latest-run` names the pending run: the check must see it and
 * follow it, and the upgrade must start only after it ended.
 */

let ws: Workspace | undefined;
afterEach(async () => {
  await ws?.close();
  ws = undefined;
});

const NAMES = Array.from({ length: 8 }, (_, i) => `fn-0${i}`);
/** Every workspace but the canary (fn-00, whose check is always a read of its own). */
const WAVE = NAMES.slice(1);

interface RunDoc {
  id: string;
  attributes: { status: string; 'created-at': string; 'status-timestamps': Record<string, string> };
}

describe('the pending-run check before an upgrade', () => {
  it('sees a run pending behind an ended current run (latest-run) and does not stack the upgrade on it', async () => {
    ws = await openWorkspace({ sandbox: { stepDelayMs: 20 } });
    const w = ws;
    await w.write('settings.yaml', LOCAL_STATE_SETTINGS);
    await w.write('tfe.yaml', noCodeFleet('1.0.0', NAMES));
    const first = await w.cli(['apply', '--auto-approve', '--poll-interval', '50ms']);
    expect(first.code, first.stdout + first.stderr).toBe(0);

    // The test shares the CLI's token and its 30 requests a second: a 429 is waited out.
    const api = async (path: string, init: RequestInit = {}): Promise<Response> => {
      for (;;) {
        const res = await fetch(`${w.env.TFE_ADDRESS}/api/v2${path}`, { ...init, headers: { Authorization: `Bearer ${w.env.TFE_TOKEN}`, 'Content-Type': 'application/vnd.api+json' } });
        if (res.status !== 429) return res;
        await new Promise((r) => setTimeout(r, 1000));
      }
    };
    const idOf = async (name: string) => ((await (await api(`/organizations/acme/workspaces/${name}`)).json()) as { data: { id: string } }).data.id;
    const ids = new Map<string, string>();
    for (const n of WAVE) ids.set(n, await idOf(n));
    // Someone queues a run on each workspace after the canary. Each waits `pending` for 15 s before it starts,
    // while the workspace's current run is still its ended first run.
    w.sandbox.tfe.control.setStepDelay(15_000);
    const foreign = new Map<string, string>();
    for (const [n, id] of ids) {
      const queued = await api('/runs', {
        method: 'POST',
        body: JSON.stringify({ data: { type: 'runs', attributes: { message: 'someone else', 'auto-apply': true }, relationships: { workspace: { data: { type: 'workspaces', id } } } } }),
      });
      expect(queued.status).toBe(201);
      foreign.set(n, ((await queued.json()) as { data: { id: string } }).data.id);
    }
    w.sandbox.tfe.control.setStepDelay(20);
    const shown = (await (await api(`/workspaces/${ids.get('fn-07') ?? ''}`)).json()) as { data: { relationships: Record<string, { data: { id: string } | null }> } };
    expect(shown.data.relationships['latest-run']?.data?.id).toBe(foreign.get('fn-07'));
    expect(shown.data.relationships['current-run']?.data?.id).not.toBe(foreign.get('fn-07'));

    await w.write('tfe.yaml', noCodeFleet('1.1.0', NAMES));
    w.sandbox.log.clear();
    const r = await w.cli(['apply', '--auto-approve', '--parallelism', '10', '--poll-interval', '50ms']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    // The wave after the canary asked its pending-run checks in sweeps of the workspace list.
    expect(w.sandbox.log.entries({ service: 'tfe' }).some((e) => e.path === '/api/v2/organizations/acme/workspaces' && e.query.includes('include=current_run'))).toBe(true);
    for (const [n, id] of ids) {
      const runs = ((await (await api(`/workspaces/${id}/runs`)).json()) as { data: RunDoc[] }).data;
      const theirs = runs.find((x) => x.id === foreign.get(n));
      const upgrade = runs[0];
      expect(theirs?.attributes.status, n).toBe('applied');
      expect(upgrade?.id, n).not.toBe(foreign.get(n));
      // The upgrade was initiated only once the pending run had ended, not queued behind it.
      expect(Date.parse(upgrade?.attributes['created-at'] ?? ''), n).toBeGreaterThanOrEqual(Date.parse(theirs?.attributes['status-timestamps']['applied-at'] ?? ''));
      expect(r.stdout + r.stderr).toContain(`run ${foreign.get(n) ?? ''} is in flight but not in state`);
    }
    const plan = await w.cli(['plan', '--detailed-exitcode']);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  }, 120_000);
});
