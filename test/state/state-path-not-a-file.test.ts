import { spawnSync } from 'node:child_process';
import { readdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, openWorkspace, runProcess, type CliResult, type Workspace } from '../e2e/harness.js';
import { applying, inStory, planning, storyPerTest } from '../library/story.js';

/*
 * Regressions: a state path that is a FIFO hung plan and apply forever (apply holding the
 * lock); a device file was read until memory ran out; a failed state write (a full disk, here a file
 * size limit: EFBIG) left `.tmp` files behind and reported objects as "FAILED to create" although they
 * had been created. Plan and apply run in-process; the apply under a file size limit is a process of its own.
 */

let ws: Workspace | undefined;
afterEach(async () => {
  await ws?.close();
  ws = undefined;
});

const STATE_DIR = '.converge';
const story = storyPerTest();

describe('a state path that is not a regular file', () => {
  it('a named pipe is refused at once by plan and apply, and apply leaves no lock', async () => {
    const s = await story({ copyExamples: true });
    await s.write(`${STATE_DIR}/keep`, '');
    expect(spawnSync('mkfifo', [join(s.dir, STATE_DIR, 'state.json')]).status).toBe(0);
    for (const step of [planning(), applying()]) {
      const r = await inStory(s, step);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('is not a regular file (it is a named pipe)');
    }
    expect((await readdir(join(s.dir, STATE_DIR))).filter((f) => f.endsWith('.lock'))).toEqual([]);
    expect(s.sandbox.log.writes('nomad').length + s.sandbox.log.writes('tfe').length).toBe(0);
  });

  it('a device is refused, not read until memory runs out', async () => {
    const s = await story({ copyExamples: true });
    await s.write(`${STATE_DIR}/keep`, '');
    await symlink('/dev/zero', join(s.dir, STATE_DIR, 'state.json'));
    const r = await inStory(s, planning());
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('is not a regular file (it is a device)');
  });
});

/** The CLI with a file size limit, so the state write fails the way a full disk does. */
function cliWithFileLimit(w: Workspace, kib: number, args: string[]): Promise<CliResult> {
  const quoted = [CLI, ...args].map((a) => `'${a}'`).join(' ');
  return runProcess('bash', ['-c', `ulimit -f ${kib}; exec "${process.execPath}" ${quoted}`], { cwd: w.dir, env: w.env });
}

describe('a state write that fails', () => {
  it('says what was done but not recorded, starts nothing more, leaves no temp file, and the rerun converges', async () => {
    ws = await openWorkspace({ copyExamples: true });
    const failed = await cliWithFileLimit(ws, 2, ['apply', '--auto-approve', '.']);
    expect(failed.code).toBe(1);
    const out = failed.stdout + failed.stderr;
    expect(out).toMatch(/on the service, but NOT recorded in the state: the state could not be saved: cannot write the state file .*EFBIG|File too large/);
    expect(out).not.toContain('FAILED to create');
    expect(out).toContain('not started: an earlier change could not be recorded');
    expect((await readdir(join(ws.dir, STATE_DIR))).filter((f) => f.endsWith('.tmp'))).toEqual([]);

    const rerun = await inStory(ws, applying());
    expect(rerun.code, rerun.stdout + rerun.stderr).toBe(0);
    const replan = await inStory(ws, planning({ detailedExitcode: true }));
    expect(replan.code, replan.stdout + replan.stderr).toBe(0);
    // No duplicates: one create per object across both runs.
    const creates = ws.sandbox.log.writes('nomad').filter((e) => e.method === 'PUT' && e.path === '/v1/acl/auth-method' && e.status === 200);
    expect(creates.length).toBeLessThanOrEqual(2);
  }, 60_000);
});
