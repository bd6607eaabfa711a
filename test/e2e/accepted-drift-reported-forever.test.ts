import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { driftCommand } from '../../src/cli/commands/drift.js';
import { applying, inProcess, openStory, planning, type CommandStep, type Story } from '../library/story.js';
import type { CliResult } from './harness.js';
import { actions, jwtMethod } from './fixtures-first-use.js';

/*
 * Someone changed a live object, the team updated the manifest to match, and `drift`
 * kept exiting 2 because the state still recorded the old values. Now an apply whose plan has no
 * change for an owned object refreshes its record, and `plan/apply --refresh-only` accepts live
 * values into the state without writing to the services (decisions.md §18). Each step runs the command's own code
 * through the CLI's Host in this process against the Nomad simulator, its output and exit code collected.
 */

describe('accepting drift (commands in-process ↔ simulator)', () => {
  let ws: Story;
  const run = (step: CommandStep): Promise<CliResult> => inProcess({ cwd: ws.dir, env: ws.env }, step);
  const url = () => `${ws.sandbox.nomad.url}/v1/acl/auth-method/ci`;
  const headers = () => ({ 'X-Nomad-Token': ws.sandbox.nomad.managementToken });
  async function changeLive(change: Record<string, unknown>): Promise<void> {
    const live = (await (await fetch(url(), { headers: headers() })).json()) as Record<string, unknown>;
    const w = await fetch(url(), { method: 'POST', headers: headers(), body: JSON.stringify({ ...live, ...change }) });
    expect(w.status).toBe(200);
  }
  const causes = async () => {
    const d = await run((h) => driftCommand(h, ['.'], { json: true }));
    return { code: d.code, causes: (JSON.parse(d.stdout) as { drift: { name: string; cause: string }[] }).drift.map((x) => `${x.cause} ${x.name}`) };
  };
  const recorded = async () =>
    (JSON.parse(await readFile(join(ws.dir, '.converge', 'state.json'), 'utf8')) as { records: { name: string; applied: Record<string, unknown> }[] }).records.find((r) => r.name === 'ci')?.applied;

  // A fresh sandbox and directory per test, so each runs alone (`-t`).
  beforeEach(async () => {
    ws = await openStory({ realTime: true });
    await ws.write('methods.yaml', jwtMethod('ci', { locality: 'global' }));
    const a = await run(applying());
    expect(a.code, a.stderr).toBe(0);
  });
  afterEach(async () => ws?.close());

  it('manifest updated to match a live change: the plan has no change but says it refreshes the record; apply does, and drift is clean', async () => {
    await changeLive({ TokenLocality: 'local' });
    await ws.write('methods.yaml', jwtMethod('ci', { locality: 'local' }));
    expect(await causes()).toEqual({ code: 2, causes: ['outside ci'] });

    const p = await run(planning({ detailedExitcode: true }));
    expect(p.code, p.stderr).toBe(0);
    expect(p.stdout).toContain('No changes.');
    expect(p.stdout).toContain('tokenLocality: "global" → "local" (recorded → live)');
    expect(p.stdout).toContain('1 state record of owned objects will be brought up to the live objects by the next apply (nothing is sent).');

    ws.sandbox.log.clear();
    const a = await run(applying());
    expect(a.code, a.stderr).toBe(0);
    expect(a.stdout).toContain('No changes to live objects. Brought 1 state record up to the live objects (nothing was sent): NomadAuthMethod/ci.');
    expect(ws.sandbox.log.writes()).toEqual([]);
    expect((await recorded())?.tokenLocality).toBe('local');
    expect(await causes()).toEqual({ code: 0, causes: [] });
  });

  it('--refresh-only (saved, then applied) accepts a live change the manifests do not have, sending nothing; what remains is a pending change', async () => {
    await changeLive({ MaxTokenTTL: '1h0m0s' });
    const p = await run(planning({ refreshOnly: true, json: true }));
    expect(p.code, p.stderr).toBe(0);
    expect(actions(p.stdout)).toEqual(['no-op refresh live NomadAuthMethod/ci']);
    const text = await run(planning({ refreshOnly: true }));
    expect(text.stdout).toContain('Refresh only: nothing is sent to the services');
    expect(text.stdout).toContain('maxTokenTtl: "30m0s" → "1h0m0s" (recorded → live)');

    // A saved refresh-only plan stays refresh-only when applied.
    expect((await run(planning({ refreshOnly: true, out: 'refresh.json' }))).code).toBe(0);
    ws.sandbox.log.clear();
    const a = await run(applying({ autoApprove: false, plan: 'refresh.json' }));
    expect(a.code, a.stderr).toBe(0);
    expect(a.stdout).toContain('Brought 1 state record up to the live objects (nothing was sent): NomadAuthMethod/ci.');
    expect(ws.sandbox.log.writes()).toEqual([]);
    expect((await recorded())?.maxTokenTtl).toBe('1h0m0s');
    // Live is now what converge knows; the manifest still says 30m: that is pending, not outside drift.
    expect(await causes()).toEqual({ code: 2, causes: ['pending ci'] });
    const direct = await run(applying({ refreshOnly: true }));
    expect(direct.stdout).toBe('Nothing to refresh: every state record matches its live object.\n');
    expect(ws.sandbox.log.writes()).toEqual([]);
  });
});
