import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applying, forgetting, givenApplied, openStory, planning, type Story } from '../library/story.js';
import { runCli } from './harness.js';
import { actions, jwtMethod } from './fixtures-first-use.js';

/*
 * An unowned live object that differed from its manifest was planned as an update and
 * taken over silently. Now adoption is automatic only when every readable field matches; otherwise
 * the plan is an error naming the file, the differing fields and the two ways to take it
 * (`--adopt Kind/name`, `converge import`) (decisions.md §17). Each step runs the command's own code in this
 * process (its text and exit code) against the Nomad simulator on the story's ManualClock, but `import`, which
 * runs as the built CLI (a process's stdout).
 */

describe('a differing unowned live object is not taken over silently (commands in-process ↔ simulator)', () => {
  let ws: Story;
  const lose = () => rm(join(ws.dir, '.converge'), { recursive: true, force: true });
  // A fresh sandbox and directory per test, so each runs alone (`-t`).
  beforeEach(async () => {
    ws = await openStory();
    // Someone else's object: made by converge in this directory, whose state is then lost.
    await ws.write('methods.yaml', jwtMethod('ci', { ttl: '30m' }));
    const a = await ws.run(applying());
    expect(a.code, a.stderr).toBe(0);
    await lose();
    // The manifest now differs from that live object.
    await ws.write('methods.yaml', jwtMethod('ci', { ttl: '2h' }));
    ws.sandbox.log.clear();
  });

  /** ci adopted with --adopt (owned and matching its manifest); the request log cleared. */
  const adoptedCi = () => givenApplied(ws, { adopt: ['NomadAuthMethod/ci'] });
  afterEach(async () => ws?.close());

  it('plan refuses it: file:line:col, the differing field with both values, --adopt and converge import', async () => {
    const r = await ws.run(planning({ detailedExitcode: true }));
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stderr).toContain('on methods.yaml line 6, column 16:'); // the manifest's maxTokenTtl
    expect(r.stderr).toContain('NomadAuthMethod/ci already exists live, is not owned by converge, and differs from its manifest: maxTokenTtl');
    expect(r.stderr).toContain('maxTokenTtl: live "30m0s", manifest "2h0m0s"');
    expect(r.stderr).toContain('converge apply --adopt NomadAuthMethod/ci');
    expect(r.stderr).toContain('converge import NomadAuthMethod/ci');
    const a = await ws.run(applying());
    expect(a.code).toBe(1);
    expect(ws.sandbox.log.writes()).toEqual([]);
    await expect(readFile(join(ws.dir, '.converge', 'state.json'), 'utf8')).rejects.toThrow();
  });

  it('--adopt takes it: the plan updates it, apply makes it owned and matching', async () => {
    const p = await ws.run(planning({ json: true, adopt: ['NomadAuthMethod/ci'] }));
    expect(p.code, p.stderr).toBe(0);
    expect(actions(p.stdout)).toEqual(['update NomadAuthMethod/ci']);
    const a = await ws.run(applying({ adopt: ['NomadAuthMethod/ci'] }));
    expect(a.code, a.stderr).toBe(0);
    expect(ws.sandbox.log.writes('nomad').map((e) => `${e.method} ${e.path}`)).toEqual(['POST /v1/acl/auth-method/ci']);
    expect((await ws.run(planning({ detailedExitcode: true }))).code).toBe(0);
  });

  it('converge import, which the error names, records a differing object as it is; the plan then updates it', async () => {
    await adoptedCi();
    await ws.write('other.yaml', jwtMethod('other', { ttl: '30m' }));
    expect((await ws.run(applying({ target: ['NomadAuthMethod/other'] }))).code).toBe(0);
    await ws.run(forgetting('NomadAuthMethod/other'));
    await ws.write('other.yaml', jwtMethod('other', { ttl: '1h' }));
    ws.sandbox.log.clear();
    // The built CLI, as a person follows the error: its report on stdout of a process (the one test that spawns `import`).
    const i = await runCli(['import', 'NomadAuthMethod/other'], { cwd: ws.dir, env: ws.env });
    expect(i.code, i.stdout + i.stderr).toBe(0);
    expect(i.stdout).toContain('The manifest differs from the live object in maxTokenTtl');
    expect(ws.sandbox.log.writes()).toEqual([]);
    const p = await ws.run(planning({ json: true }));
    expect(actions(p.stdout)).toEqual(['update NomadAuthMethod/other']);
  });

  it('--adopt of an owned object is an error that says so', async () => {
    await adoptedCi();
    const r = await ws.run(planning({ adopt: ['NomadAuthMethod/ci'] }));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--adopt NomadAuthMethod/ci is already owned by this state');
  });
});
