import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadManifests } from '../../src/manifest/index.js';

/*
 * Regression: a FIFO or a device named on the command line was read with readFile. Its stat size is 0,
 * so the 5 MB limit did not apply: `converge plan pipe.yaml` blocked forever and `converge plan /dev/zero`
 * read until memory ran out. Only regular files are manifests now (manifest.not-a-file).
 */
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'converge-fifo-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a FIFO or device named as a manifest was read forever', () => {
  it('a FIFO is refused at once with a located diagnostic', async () => {
    expect(spawnSync('mkfifo', [join(dir, 'pipe.yaml')]).status).toBe(0);
    const r = await loadManifests(['pipe.yaml'], { cwd: dir });
    expect(r.diagnostics.map((d) => [d.code, d.range?.file, d.range?.start])).toEqual([['manifest.not-a-file', 'pipe.yaml', { line: 1, col: 1 }]]);
  }, 5000);

  it('/dev/zero is refused at once', async () => {
    const r = await loadManifests(['/dev/zero'], { cwd: dir });
    expect(r.diagnostics.map((d) => d.code)).toEqual(['manifest.not-a-file']);
  }, 5000);
});
