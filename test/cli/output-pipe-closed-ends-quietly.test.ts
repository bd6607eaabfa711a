import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CLI, workspacePerTest } from '../e2e/harness.js';

/*
 * Regression: `converge state list | head -3` crashed with an unhandled 'error' event (write EPIPE)
 * and a stack trace once head had gone. A closed output pipe must end the output quietly: the
 * command finishes with its own exit code and prints nothing about the pipe.
 */

const workspace = workspacePerTest();

/** Runs the CLI with its stdout pipe closed by the reader before the CLI writes anything. */
function runWithStdoutClosed(args: string[], cwd: string, env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('a closed output pipe', () => {
  it('ends state list, validate, plan and help quietly with their own exit codes', async () => {
    const ws = await workspace({ copyExamples: true });
    const apply = await ws.cli(['apply', '--auto-approve', '.']);
    expect(apply.code, apply.stderr).toBe(0);

    for (const [args, code] of [
      [['state', 'list', '.'], 0],
      [['validate', '--json', '.'], 0],
      [['plan', '--detailed-exitcode', '.'], 0],
      [['--help'], 0],
    ] as const) {
      const r = await runWithStdoutClosed([...args], ws.dir, ws.env);
      expect(r.stderr, args.join(' ')).not.toMatch(/EPIPE|Unhandled|node:events/);
      expect(r.code, `${args.join(' ')}\n${r.stderr}`).toBe(code);
    }
  });
});
