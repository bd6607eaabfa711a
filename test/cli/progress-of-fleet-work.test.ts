import { describe, expect, it } from 'vitest';
import { CLI, runProcess, workspacePerTest } from '../e2e/harness.js';
import { noCodeFleet, OKTA_METHOD, TFE_SETTINGS } from '../e2e/manifests.js';
import { linesPerRun } from './run-cli.js';

/*
 * Regression: creating 50 workspaces without a TTY kept the counter at [1/51] until the batch returned, then
 * printed the 50 "create succeeded" lines at once with one timestamp, among some 900 lines of run states;
 * on a TTY the status line's count and the rollout's "upgrades: 2 done, 3 running" line were two counts
 * that disagreed (the rollout left out what it skipped, and printed its line every second).
 */

const workspace = workspacePerTest();
const names = (n: number) => Array.from({ length: n }, (_, i) => `fn-${String(i).padStart(2, '0')}`);
const STAMP = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z) /;

describe('progress on fleet work', () => {
  it('without a TTY, 50 creates are counted as each finishes, each line stamped when it happens, a run by stage', async () => {
    const ws = await workspace({ sandbox: { stepDelayMs: 20 } });
    await ws.write('settings.yaml', TFE_SETTINGS);
    await ws.write('okta.yaml', OKTA_METHOD);
    await ws.write('fleet.yaml', noCodeFleet('1.0.0', names(50)));
    const r = await ws.cli(['apply', '--auto-approve', '--parallelism', '8', '--poll-interval', '20ms']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stderr.split('\n').filter((l) => STAMP.test(l));
    const at = (l: string) => STAMP.exec(l)?.[1] ?? '';
    const text = (l: string) => l.replace(STAMP, '');
    const starts = lines.map((l, i) => ({ l: text(l), i })).filter(({ l }) => /^NoCodeWorkspace\/\S+: create…$/.test(l));
    const dones = lines.map((l, i) => ({ l: text(l), i, at: at(l) })).filter(({ l }) => /^\[\d+\/\d+\] NoCodeWorkspace\/\S+: create succeeded/.test(l));
    expect(starts).toHaveLength(50);
    expect(dones).toHaveLength(50);
    // The counter advances with each object, in the order they finish (the module and okta came first).
    expect(dones.map(({ l }) => Number(/^\[(\d+)\//.exec(l)?.[1]))).toEqual(Array.from({ length: 50 }, (_, i) => i + 3));
    // As they happen: the first workspace is done before the last one is sent, and the done lines' stamps move.
    expect(dones[0]?.i).toBeLessThan(starts[49]?.i ?? -1);
    expect(new Set(dones.map((d) => d.at)).size).toBeGreaterThan(1);
    expect([...dones.map((d) => d.at)].sort()).toEqual(dones.map((d) => d.at));
    // No flood: a run prints a line per stage (at most queued, planning, planned, applying, its end).
    const perRun = linesPerRun(lines);
    expect(perRun.size).toBe(50);
    for (const n of perRun.values()) expect(n).toBeLessThanOrEqual(5);
    expect(lines.length).toBeLessThan(50 * 8);
    // A Nomad object's "create…" is said when it is sent: its end is the next line about it.
    const okta = lines.map(text).filter((l) => /NomadAuthMethod\/okta: create/.test(l));
    expect(okta).toHaveLength(2);
    expect(okta[0]).toBe('NomadAuthMethod/okta: create…');
    expect(okta[1]).toMatch(/^\[1\/52\] NomadAuthMethod\/okta: create succeeded/);
  }, 180_000);

  it('on a TTY, the status line and the upgrades summary count the same upgrades', async () => {
    const ws = await workspace({ sandbox: { stepDelayMs: 20 } });
    await ws.write('settings.yaml', TFE_SETTINGS);
    await ws.write('fleet.yaml', noCodeFleet('1.0.0', names(6)));
    const created = await ws.cli(['apply', '--auto-approve', '--poll-interval', '20ms']);
    expect(created.code, created.stderr).toBe(0);
    await ws.write('fleet.yaml', noCodeFleet('1.1.0', names(6)));
    ws.sandbox.tfe.control.setNextRunOutcome('fn-02', 'errored');
    // `script` gives the CLI a real terminal (stdout and stderr both, merged into its output).
    const command = [process.execPath, CLI, 'apply', '--auto-approve', '--no-color', '--parallelism', '2', '--poll-interval', '20ms'].map((a) => `'${a}'`).join(' ');
    const r = await runProcess('script', ['-qfec', command, '/dev/null'], { cwd: ws.dir, env: { ...ws.env, TERM: 'xterm' } });
    expect(r.code, r.stdout).not.toBe(0); // fn-02's upgrade failed
    const segments = r.stdout.split(/[\r\n]+/).map((s) => s.trimEnd());
    const drawn = segments.filter((s) => /^\[\d+\/7\] applying · upgrades: /.test(s));
    expect(drawn.length).toBeGreaterThan(2);
    for (const s of drawn) {
      // The module's update finishes first: the counter is 1 + the upgrades done, in every redraw.
      const [, count, done] = /^\[(\d+)\/7\] applying · upgrades: (\d+) done, /.exec(s) ?? [];
      expect(Number(count), s).toBe(1 + Number(done));
    }
    expect(segments.filter((s) => s.startsWith('upgrades: '))).toEqual(['upgrades: 6 done, 0 running, 0 waiting, 1 failed, 3 skipped (of 6)']);
  }, 180_000);
});
