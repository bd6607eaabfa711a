import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { heapFlags } from '../../src/cli/heap-tuning.js';
import { assertBuilt, cleanEnv, CLI } from './run-cli.js';

/*
 * The CLI keeps V8's young generation at its starting size and the old one at 1.3 × its live
 * size (src/cli/heap-tuning.ts), which took a 10 000-workspace plan from 242 to 166 MB. Checked on the
 * running CLI: a hook preloaded into it reports the young generation's size at exit, after a validate of
 * 3 000 documents, which with V8's defaults grows it to two 16 MB semi-spaces. A heap flag the user gives
 * node wins over the tuning.
 */

const HOOK =
  "import v8 from 'node:v8';\n" +
  "process.on('exit', () => process.stderr.write(`NEW_SPACE_BYTES ${v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size}\\n`));\n";

function workspaces(from: number, count: number): string {
  const docs: string[] = [];
  for (let w = from; w < from + count; w++) {
    docs.push(
      `kind: NoCodeWorkspace\nname: ws-${w}\nspec:\n  module: svc\n  description: workspace ${w}\n  variables:\n` +
        `    - { key: region, value: eu-west-1, category: terraform }\n    - { key: size, value: small, category: terraform }\n`,
    );
  }
  return docs.join('---\n');
}

let dir = '';
beforeAll(async () => {
  assertBuilt();
  dir = await mkdtemp(join(tmpdir(), 'converge-heap-'));
  await writeFile(join(dir, 'hook.mjs'), HOOK);
  await writeFile(join(dir, 'modules.yaml'), 'kind: NoCodeModule\nname: svc\nspec:\n  registryModule: acme/svc/aws\n  versionPin: 1.0.0\n');
  for (let f = 0; f < 3; f++) await writeFile(join(dir, `workspaces-${f}.yaml`), workspaces(f * 1000, 1000));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The young generation's size at the end of `converge validate` over the 3 000 documents. */
function youngGenerationBytes(nodeArgs: string[]): number {
  const r = spawnSync(process.execPath, [...nodeArgs, '--import', join(dir, 'hook.mjs'), CLI, 'validate', '.'], {
    cwd: dir,
    env: cleanEnv(dir),
    encoding: 'utf8',
  });
  expect(r.stdout).toContain('3001 documents in 4 files are valid');
  const m = /NEW_SPACE_BYTES (\d+)/.exec(r.stderr);
  expect(m, r.stderr).not.toBeNull();
  return Number(m?.[1]);
}

describe('the CLI tunes the heap for a batch run', () => {
  it('keeps the young generation small, unless the user sets it', () => {
    const tuned = youngGenerationBytes([]);
    const usersOwn = youngGenerationBytes(['--semi-space-growth-factor=2']);
    expect(tuned).toBeLessThanOrEqual(8 * 1024 * 1024);
    // V8's default growth, which the user's own flag brings back: at least four times as large.
    expect(usersOwn).toBeGreaterThanOrEqual(4 * tuned);
  });

  it('leaves out each tuning whose setting the user gave node, in either spelling', () => {
    expect(heapFlags([])).toEqual(['--semi-space-growth-factor=1', '--heap-growing-percent=30']);
    expect(heapFlags(['--max-semi-space-size=64'])).toEqual(['--heap-growing-percent=30']);
    expect(heapFlags(['--heap_growing_percent=50', '--enable-source-maps'])).toEqual(['--semi-space-growth-factor=1']);
    expect(heapFlags(['--min-semi-space-size=8', '--heap-growing-percent=0'])).toEqual([]);
  });
});
