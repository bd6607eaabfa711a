import { spawnSync } from 'node:child_process';
import { readdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, openWorkspace, runProcess, type CliResult, type Workspace } from '../e2e/harness.js';

/*
 * Regressions: a state path that is a FIFO hung plan and apply forever (apply holding the
 * lock); a device file was read until memory ran out; a failed state write (a full disk, here a file
 * size limit: EFBIG) left `.tmp` files behind and reported objects as "FAILED to create" although they
 * had been created.
 */

let ws: Workspace | undefined;
afterEach(async () => {
  await ws?.close();
  ws = undefined;
});

const STATE_DIR = '.converge';

describe('a state path that is not a regular file', () => {
  it('a named pipe is refused at once by plan and apply, and apply leaves no lock', async () => {
    ws = await openWorkspace({ copyExamples: true });
    await ws.write(`${STATE_DIR}/keep`, '');
    expect(spawnSync('mkfifo', [join(ws.dir, STATE_DIR, 'state.json')]).status).toBe(0);
    for (const args of [['plan', '.'], ['apply', '--auto-approve', '.']]) {
      const r = await ws.cli(args);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('is not a regular file (it is a named pipe)');
    }
    expect((await readdir(join(ws.dir, STATE_DIR))).filter((f) => f.endsWith('.lock'))).toEqual([]);
    expect(ws.sandbox.log.writes('nomad').length + ws.sandbox.log.writes('tfe').length).toBe(0);
  });

  it('a device is refused, not read until memory runs out', async () => {
    ws = await openWorkspace({ copyExamples: true });
    await ws.write(`${STATE_DIR}/keep`, '');
    await symlink('/dev/zero', join(ws.dir, STATE_DIR, 'state.json'));
    const r = await ws.cli(['plan', '.']);
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

    const rerun = await ws.cli(['apply', '--auto-approve', '.']);
    expect(rerun.code, rerun.stdout + rerun.stderr).toBe(0);
    const replan = await ws.cli(['plan', '--detailed-exitcode', '.']);
    expect(replan.code, replan.stdout + replan.stderr).toBe(0);
    // No duplicates: one create per object across both runs.
    const creates = ws.sandbox.log.writes('nomad').filter((e) => e.method === 'PUT' && e.path === '/v1/acl/auth-method' && e.status === 200);
    expect(creates.length).toBeLessThanOrEqual(2);
  }, 60_000);
});
