import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { workspacePerTest } from '../e2e/harness.js';
import { linesPerRun } from './run-cli.js';

/*
 * Regression: without a TTY, creating a fleet of workspaces kept the counter at its first value until the whole
 * batch returned, then printed every "create succeeded" at once, after a "create…" line for every object of the
 * batch up front (Nomad objects not yet sent included), and a line for every state of every run (some twenty per
 * run). Now each object is counted as it finishes, "create…" is said when it is really sent, and a run prints a
 * line per stage (queued, planning, applying, …), not per state.
 */

const workspace = workspacePerTest();

describe('progress without a TTY', () => {
  it('counts each object as it finishes, starts it when it is sent, and prints a run by stage', async () => {
    const ws = await workspace({ copyExamples: true, sandbox: { stepDelayMs: 150 } });
    const file = join(ws.dir, 'tfe', 'vpc.yaml');
    const text = await readFile(file, 'utf8');
    const dev = text.slice(text.indexOf('kind: NoCodeWorkspace'));
    const more = ['a', 'b', 'c', 'd'].map((n) => dev.replace('name: vpc-dev', `name: vpc-${n}`));
    await writeFile(file, [text, ...more].join('\n---\n'));

    const r = await ws.cli(['apply', '--auto-approve', '--parallelism', '2', '--poll-interval', '20ms', '.']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stderr.split('\n').map((l) => l.replace(/^\S+Z /, ''));
    const starts = lines.map((l, i) => ({ l, i })).filter(({ l }) => /^NoCodeWorkspace\/\S+: create…$/.test(l));
    const dones = lines.map((l, i) => ({ l, i })).filter(({ l }) => /^\[\d+\/\d+\] NoCodeWorkspace\/\S+: create succeeded/.test(l));
    expect(starts).toHaveLength(6);
    expect(dones).toHaveLength(6);
    // Two at a time: the first workspace is done before the last one is sent.
    expect(dones[0]?.i).toBeLessThan(starts[5]?.i ?? -1);
    // Counted as they finish: each done line has its own count.
    const counts = dones.map(({ l }) => Number(/^\[(\d+)\//.exec(l)?.[1]));
    expect(new Set(counts).size).toBe(6);

    // Nomad objects are sent one at a time: each "create…" is followed by its own end before the next starts.
    const nomad = lines.filter((l) => /^(\[\d+\/\d+\] )?Nomad\w+\/\S+: create(…| )/.test(l));
    expect(nomad.length).toBeGreaterThan(4);
    for (let i = 0; i < nomad.length; i += 2) {
      expect(nomad[i]).toMatch(/: create…$/);
      expect(nomad[i + 1]).toMatch(/create succeeded/);
    }

    // A run prints a line per stage, never one per state.
    const perRun = linesPerRun(lines);
    expect(perRun.size).toBeGreaterThanOrEqual(6);
    // queued, planning, planned, applying, applied at most (a run passes some twelve states here).
    for (const n of perRun.values()) expect(n).toBeLessThanOrEqual(5);
  }, 120_000);
});
