import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applying, inProcess, openStory, planning, type CommandStep, type Story } from '../library/story.js';
import type { CliResult } from './harness.js';
import { actions, jwtMethod } from './fixtures-first-use.js';

/*
 * `converge plan nomad/` planned to delete every owned object whose manifest lived
 * elsewhere, and an empty directory only warned. Now the state records each object's manifest file;
 * an object whose file still exists but was not given is left alone (said once), a delete is planned
 * only when its document is really gone, and no documents at all with a non-empty state is an error
 * unless --allow-empty (decisions.md §16). Each step runs the command's own code through the CLI's Host in this
 * process against the Nomad simulator, output and exit code collected.
 */

describe('a subset of paths plans no deletions (commands in-process ↔ simulator)', () => {
  let ws: Story;
  const run = (step: CommandStep): Promise<CliResult> => inProcess({ cwd: ws.dir, env: ws.env }, step);
  // A fresh sandbox and directory per test, so each runs alone (`-t`).
  beforeEach(async () => {
    ws = await openStory({ realTime: true });
    await ws.write('nomad/ci.yaml', jwtMethod('ci'));
    await ws.write('team/ops.yaml', `${jwtMethod('ops')}---\n${jwtMethod('ops-two')}`);
    await mkdir(join(ws.dir, 'empty'));
    const a = await run(applying());
    expect(a.code, a.stderr).toBe(0);
  });
  afterEach(async () => ws?.close());

  it('the state records where each document came from, relative to the working directory', async () => {
    const state = JSON.parse(await readFile(join(ws.dir, '.converge', 'state.json'), 'utf8')) as { records: { name: string; source?: string }[] };
    expect(Object.fromEntries(state.records.map((r) => [r.name, r.source]))).toEqual({ ci: join('nomad', 'ci.yaml'), ops: join('team', 'ops.yaml'), 'ops-two': join('team', 'ops.yaml') });
  });

  it('plan nomad/: nothing to delete, the objects of team/ops.yaml said once as left alone', async () => {
    ws.sandbox.log.clear();
    const r = await run(planning({ detailedExitcode: true }, ['nomad/']));
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('No changes.');
    expect(r.stdout).not.toContain('to delete');
    const line = `2 owned objects left alone, from manifest files that exist but were not given (${join('team', 'ops.yaml')}): NomadAuthMethod/ops, NomadAuthMethod/ops-two.`;
    expect(r.stdout.split(line), r.stdout).toHaveLength(2);
    const j = await run(planning({ json: true }, ['nomad/']));
    expect(actions(j.stdout)).toEqual([]);
    expect((JSON.parse(j.stdout) as { notices: unknown[] }).notices).toEqual([
      { code: 'out-of-scope', objects: [{ kind: 'NomadAuthMethod', name: 'ops', source: join('team', 'ops.yaml') }, { kind: 'NomadAuthMethod', name: 'ops-two', source: join('team', 'ops.yaml') }] },
    ]);
    expect(ws.sandbox.log.writes()).toEqual([]);
  });

  it('a document removed from a given file is deleted; one whose file is gone is deleted too', async () => {
    await ws.write('team/ops.yaml', jwtMethod('ops'));
    const r = await run(planning({ json: true }, ['team/']));
    expect(r.code, r.stderr).toBe(0);
    expect(actions(r.stdout)).toEqual(['delete NomadAuthMethod/ops-two']);

    await rm(join(ws.dir, 'nomad'), { recursive: true });
    const gone = await run(planning({ json: true }, ['team/']));
    expect(actions(gone.stdout)).toEqual(['delete NomadAuthMethod/ci', 'delete NomadAuthMethod/ops-two']);
    await ws.write('nomad/ci.yaml', jwtMethod('ci'));
    await ws.write('team/ops.yaml', `${jwtMethod('ops')}---\n${jwtMethod('ops-two')}`);
  });

  it('an empty directory with a non-empty state is an error naming --allow-empty; with it, nothing is deleted while the files exist', async () => {
    ws.sandbox.log.clear();
    const r = await run(planning({}, ['empty/']));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('no manifest documents in empty/, but the state owns 3 objects');
    expect(r.stderr).toContain('--allow-empty');
    const a = await run(applying({}, ['empty/']));
    expect(a.code).toBe(1);
    expect(a.stderr).toContain('--allow-empty');

    const allowed = await run(planning({ json: true, allowEmpty: true }, ['empty/']));
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(actions(allowed.stdout)).toEqual([]);
    expect(ws.sandbox.log.writes()).toEqual([]);
  });
});
