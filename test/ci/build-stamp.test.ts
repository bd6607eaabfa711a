import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO } from '../e2e/harness.js';

/*
 * `npm run test:slow` builds only when dist/ was not built from the sources as they are (scripts/build-stamp.mjs):
 * CI runs it right after `npm test`, which has just built. The script runs on a small copy of a repository here.
 */

const run = promisify(execFile);
let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function repo(): Promise<string> {
  dir = await mkdtemp(join(tmpdir(), 'converge-build-stamp-'));
  await mkdir(join(dir, 'scripts'));
  await cp(join(REPO, 'scripts', 'build-stamp.mjs'), join(dir, 'scripts', 'build-stamp.mjs'));
  await mkdir(join(dir, 'src'));
  await writeFile(join(dir, 'src', 'index.ts'), 'export const a = 1;\n');
  await writeFile(join(dir, 'package.json'), '{}\n');
  return dir;
}

async function stamp(root: string, step: 'begin' | 'end' | 'check'): Promise<number> {
  try {
    await run(process.execPath, [join(root, 'scripts', 'build-stamp.mjs'), step]);
    return 0;
  } catch (e) {
    return (e as { code?: number }).code ?? -1;
  }
}

/** A build as `npm run build` makes it: the digest taken first, dist written, the stamp last. */
async function build(root: string): Promise<void> {
  expect(await stamp(root, 'begin')).toBe(0);
  await mkdir(join(root, 'dist', 'cli'), { recursive: true });
  await writeFile(join(root, 'dist', 'cli', 'main.js'), '');
  expect(await stamp(root, 'end')).toBe(0);
}

describe('build stamp', () => {
  it('a dist built from the current sources is kept; a source changed since, or no dist, means building', async () => {
    const root = await repo();
    expect(await stamp(root, 'check'), 'no dist').toBe(1);
    await build(root);
    expect(await stamp(root, 'check'), 'just built').toBe(0);
    await writeFile(join(root, 'src', 'index.ts'), 'export const a = 2;\n');
    expect(await stamp(root, 'check'), 'a source changed').toBe(1);
    await build(root);
    await writeFile(join(root, 'src', 'new.ts'), 'export const b = 1;\n');
    expect(await stamp(root, 'check'), 'a source added').toBe(1);
  });

  it('a build that did not finish leaves no stamp, and a source edited while it ran does not match', async () => {
    const root = await repo();
    await build(root);
    expect(await stamp(root, 'begin')).toBe(0); // tsc then fails: `end` never runs
    expect(await stamp(root, 'check'), 'failed build').toBe(1);
    await writeFile(join(root, 'src', 'index.ts'), 'export const a = 3;\n'); // edited while tsc reads
    expect(await stamp(root, 'end')).toBe(0);
    expect(await stamp(root, 'check'), 'edited during the build').toBe(1);
  });
});
