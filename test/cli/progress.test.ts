import { describe, expect, it } from 'vitest';
import { colorEnabled, Host, type TextSink } from '../../src/cli/host.js';
import { formatElapsed } from '../../src/cli/progress.js';
import type { TypedEvent } from '../../src/model/events.js';
import { runCli, sandboxProject } from './run-cli.js';

/** A terminal stand-in: what was written, and what a terminal would show on its current line. */
class FakeTty implements TextSink {
  readonly isTTY: boolean;
  text = '';
  constructor(isTTY: boolean) {
    this.isTTY = isTTY;
  }
  write(s: string): boolean {
    this.text += s;
    return true;
  }
  /** The terminal's last line after carriage returns overwrote it, trailing padding trimmed. */
  get visibleLine(): string {
    const last = this.text.split('\n').pop() ?? '';
    let line = '';
    for (const part of last.split('\r')) line = part + line.slice(part.length);
    return line.trimEnd();
  }
}

function makeHost(opts: { tty: boolean; verbosity?: 'quiet' | 'normal' | 'verbose' }) {
  let now = 1_000_000;
  const stdout = new FakeTty(opts.tty);
  const stderr = new FakeTty(opts.tty);
  const host = new Host({ stdout, stderr, env: {}, cwd: '/', verbosity: opts.verbosity ?? 'normal', color: false, now: () => now, tick: false });
  return { host, stdout, stderr, advance: (ms: number) => (now += ms) };
}

const ws = (address: string) => ({ kind: 'NoCodeWorkspace' as const, name: address.split('/')[1] ?? address, action: 'upgrade' as const });
const start = (name: string): TypedEvent => ({ code: 'apply.change.start', level: 'info', message: `${name}: upgrade…`, data: ws(name) });
const done = (name: string): TypedEvent => ({ code: 'apply.change.done', level: 'info', message: `${name}: upgrade succeeded`, data: { ...ws(name), status: 'succeeded' } });
const runPhase = (message: string): TypedEvent => ({
  code: 'tfe.run.phase',
  level: 'info',
  message,
  data: { workspace: 'a', runId: 'run-1', phase: 'planning', stage: 'planning', elapsedMs: 0, purpose: 'upgrade' },
});

describe('progress on a TTY (Host driven with a fake TTY stream)', () => {
  it('rewrites one status line with objects done/total, the current step and the elapsed time', () => {
    const { host, stderr, advance } = makeHost({ tty: true });
    host.phase('applying', 3);
    expect(stderr.visibleLine).toBe('[0/3] applying · 0ms');
    advance(2_000);
    host.reporter.emit(start('NoCodeWorkspace/a'));
    expect(stderr.visibleLine).toBe('[0/3] applying · NoCodeWorkspace/a: upgrade… · 2s');
    advance(63_000);
    host.reporter.emit(runPhase('a: upgrade run run-1 is planning'));
    expect(stderr.visibleLine).toBe('[0/3] applying · a: upgrade run run-1 is planning · 1m05s');
    expect(stderr.text).not.toContain('\n'); // status only: nothing scrolled yet
    host.reporter.emit(done('NoCodeWorkspace/a'));
    // A finished object is a permanent line with its count; the status line is redrawn below it.
    expect(stderr.text).toContain('[1/3] NoCodeWorkspace/a: upgrade succeeded\n');
    expect(stderr.visibleLine).toMatch(/^\[1\/3\] applying · /);
    host.out('result\n');
    expect(stderr.visibleLine).toBe(''); // cleared before results are written
    host.endPhase();
  });

  it('prints no timestamps on a TTY, and warnings scroll above the status line', () => {
    const { host, stderr } = makeHost({ tty: true });
    host.phase('applying', 1);
    host.reporter.emit({ code: 'http.retry', level: 'warn', message: 'GET /x: HTTP 429; retry 1 of 5', data: { method: 'GET', path: '/x', status: 429, attempt: 1, waitMs: 1000 } });
    expect(stderr.text).toContain('Warning: GET /x: HTTP 429; retry 1 of 5\n');
    expect(stderr.text).not.toMatch(/\d{4}-\d\d-\d\dT/);
    expect(stderr.visibleLine).toBe('[0/1] applying · 0ms');
  });

  it('--quiet shows no progress at all, only warnings and errors', () => {
    const { host, stderr } = makeHost({ tty: true, verbosity: 'quiet' });
    host.phase('applying', 2);
    host.reporter.emit(start('NomadAuthMethod/okta'));
    host.reporter.emit(done('NomadAuthMethod/okta'));
    expect(stderr.text).toBe('');
    host.reporter.emit({ code: 'state.lock.lost', level: 'error', message: 'boom', data: { lockId: 'l', path: 'p' } });
    expect(stderr.text).toBe('Error: boom\n');
  });

  it('--verbose adds debug events, such as how long each phase took', () => {
    const normal = makeHost({ tty: false });
    normal.host.phase('planning');
    normal.advance(1500);
    normal.host.endPhase();
    expect(normal.stderr.text).not.toContain('done in');
    const verbose = makeHost({ tty: false, verbosity: 'verbose' });
    verbose.host.phase('planning');
    verbose.advance(1500);
    verbose.host.endPhase();
    expect(verbose.stderr.text).toMatch(/Z planning: done in 1s\n$/);
  });

  it('not a TTY: every step is a line stamped with an ISO time, finished objects carry the count', () => {
    const { host, stderr } = makeHost({ tty: false });
    host.phase('applying', 2);
    host.reporter.emit(start('NomadAuthMethod/okta'));
    host.reporter.emit(done('NomadAuthMethod/okta'));
    const lines = stderr.text.trimEnd().split('\n');
    expect(lines).toEqual([
      `${new Date(1_000_000).toISOString()} applying (2 objects)…`,
      `${new Date(1_000_000).toISOString()} NomadAuthMethod/okta: upgrade…`,
      `${new Date(1_000_000).toISOString()} [1/2] NomadAuthMethod/okta: upgrade succeeded`,
    ]);
    expect(stderr.text).not.toContain('\r');
  });

  it('the status line and the upgrades summary read one count: skipped upgrades are done in both, the summary ends the rollout', () => {
    const { host, stderr } = makeHost({ tty: true });
    const ev = (code: 'apply.change.start' | 'apply.change.done', name: string, status: 'succeeded' | 'failed' | 'skipped' = 'succeeded'): TypedEvent =>
      code === 'apply.change.start'
        ? { code, level: 'info', message: `NoCodeWorkspace/${name}: upgrade…`, data: { kind: 'NoCodeWorkspace', name, action: 'upgrade' } }
        : { code, level: status === 'skipped' ? 'warn' : status === 'failed' ? 'error' : 'info', message: `NoCodeWorkspace/${name}: upgrade ${status}`, data: { kind: 'NoCodeWorkspace', name, action: 'upgrade', status } };
    const module = { kind: 'NoCodeModule' as const, name: 'lambda', action: 'update' as const };
    host.phase('applying', 6, { update: 1, upgrade: 5 });
    host.reporter.emit({ code: 'apply.change.start', level: 'info', message: 'NoCodeModule/lambda: update…', data: module });
    host.reporter.emit({ code: 'apply.change.done', level: 'info', message: 'NoCodeModule/lambda: update succeeded', data: { ...module, status: 'succeeded' } });
    expect(stderr.visibleLine).toMatch(/^\[1\/6\] applying · NoCodeModule\/lambda: update… · 0ms$/); // no upgrade started: no summary yet
    host.reporter.emit(ev('apply.change.start', 'fn-0'));
    host.reporter.emit(ev('apply.change.done', 'fn-0'));
    host.reporter.emit(ev('apply.change.start', 'fn-1'));
    host.reporter.emit(ev('apply.change.start', 'fn-2'));
    expect(stderr.visibleLine).toMatch(/^\[2\/6\] applying · upgrades: 1 done, 2 running, 2 waiting, 0 failed \(of 5\) · NoCodeWorkspace\/fn-2: upgrade… · 0ms$/);
    host.reporter.emit(ev('apply.change.done', 'fn-1', 'failed'));
    expect(stderr.visibleLine).toMatch(/^\[3\/6\] applying · upgrades: 2 done, 1 running, 2 waiting, 1 failed \(of 5\)/);
    host.reporter.emit(ev('apply.change.done', 'fn-2'));
    // The rollout stopped: the two left are skipped, counted in both the same way.
    host.reporter.emit(ev('apply.change.done', 'fn-3', 'skipped'));
    expect(stderr.visibleLine).toMatch(/^\[5\/6\] applying · upgrades: 4 done, 0 running, 1 waiting, 1 failed, 1 skipped \(of 5\)/);
    host.reporter.emit(ev('apply.change.done', 'fn-4', 'skipped'));
    expect(stderr.text).toContain('upgrades: 5 done, 0 running, 0 waiting, 1 failed, 2 skipped (of 5)\n');
    expect(stderr.text.match(/upgrades: .*\n/g)).toHaveLength(1); // one summary line, when the rollout ends
    expect(stderr.visibleLine).toMatch(/^\[6\/6\] applying · NoCodeWorkspace\/fn-2: upgrade… · 0ms$/); // rollout over: no summary
    host.endPhase();
  });

  it('a long current step is shortened on the status line, never the counts or the elapsed time', () => {
    const { host, stderr } = makeHost({ tty: true });
    host.phase('applying', 2, { upgrade: 2 });
    host.reporter.emit({ code: 'apply.change.start', level: 'info', message: `NoCodeWorkspace/${'x'.repeat(90)}: upgrade…`, data: { kind: 'NoCodeWorkspace', name: 'x'.repeat(90), action: 'upgrade' } });
    expect(stderr.visibleLine.length).toBeLessThanOrEqual(120);
    expect(stderr.visibleLine).toMatch(/^\[0\/2\] applying · upgrades: 0 done, 1 running, 1 waiting, 0 failed \(of 2\) · NoCodeWorkspace\/x+\.\.\. · 0ms$/);
  });

  it('elapsed time reads well', () => {
    expect([850, 12_000, 185_000, 3_720_000].map(formatElapsed)).toEqual(['850ms', '12s', '3m05s', '1h02m']);
  });
});

describe('colour', () => {
  const tty = { isTTY: true, write: () => true };
  it('only on a TTY, never with --no-color, NO_COLOR or TERM=dumb', () => {
    expect(colorEnabled(undefined, {}, tty)).toBe(true);
    expect(colorEnabled(false, {}, tty)).toBe(false);
    expect(colorEnabled(undefined, { NO_COLOR: '1' }, tty)).toBe(false);
    expect(colorEnabled(undefined, { TERM: 'dumb' }, tty)).toBe(false);
    expect(colorEnabled(undefined, {}, { write: () => true })).toBe(false);
  });
});

describe('progress through the built CLI (not a TTY)', () => {
  const project = sandboxProject(['settings.yaml', 'nomad']);


  const env = () => project.env();

  it('apply writes timestamped progress lines with counts to stderr, results to stdout', { timeout: 60_000 }, async () => {
    const r = await runCli(['apply', '--auto-approve'], project.dir, env());
    expect(r.code, r.stderr).toBe(0);
    const stamp = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z /;
    const progress = r.stderr.split('\n').filter((l) => stamp.test(l));
    expect(progress.length).toBeGreaterThan(2);
    expect(progress.some((l) => /Z applying \(\d+ objects\)…$/.test(l))).toBe(true);
    expect(progress.some((l) => /Z \[1\/\d+\] /.test(l))).toBe(true);
    expect(r.stderr).not.toContain('\r');
    expect(r.stdout).toMatch(/Apply complete: \d+ succeeded\./);
    expect(r.stdout).not.toMatch(stamp);
  });

  it('--quiet prints no progress; --verbose adds phase timings', { timeout: 60_000 }, async () => {
    const quiet = await runCli(['--quiet', 'plan'], project.dir, env());
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stderr).toBe('');
    const verbose = await runCli(['--verbose', 'plan'], project.dir, env());
    expect(verbose.stderr).toMatch(/Z planning: reading live state .*: done in \d+(ms|s)\n/);
  });
});
