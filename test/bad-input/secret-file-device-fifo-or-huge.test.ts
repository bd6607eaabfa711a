import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadManifests } from '../../src/manifest/index.js';
import { Redactor } from '../../src/secrets/redactor.js';
import { createSecretResolver } from '../../src/secrets/resolver.js';
import { oktaMethod } from '../e2e/manifests.js';

/*
 * Regression: a `fromFile` naming /dev/zero or a FIFO was reported as "cannot be used (EISDIR)", as if it
 * were a directory, and a 1 GB secret file was read whole (605 MB of memory) before anything failed. The
 * file is now checked before it is read: what it is, and its size.
 */
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'converge-secret-file-'));
  expect(spawnSync('mkfifo', [join(dir, 'pipe')]).status).toBe(0);
  await writeFile(join(dir, 'huge'), '');
  await truncate(join(dir, 'huge'), 1024 ** 3); // sparse: 1 GB of size, no disk
  await writeFile(join(dir, 'ok'), 's3cret-value\n');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const method = (secretPath: string): string => oktaMethod(`{ fromFile: ${secretPath} }`);

async function validateWith(secretPath: string): Promise<string[]> {
  await writeFile(join(dir, 'm.yaml'), method(secretPath));
  const r = await loadManifests(['m.yaml'], { cwd: dir, env: {} });
  return r.diagnostics.filter((d) => d.code === 'secret.file-missing').map((d) => d.summary);
}

function resolver() {
  return createSecretResolver({ env: {}, redactor: new Redactor(), salt: 'x' });
}

describe('a fromFile that is a device, a FIFO or huge was misreported or read whole', () => {
  it('validate names a character device, a FIFO and a directory for what they are', async () => {
    expect(await validateWith('/dev/zero')).toEqual(['secret file "/dev/zero" cannot be used: it is a character device, not a regular file']);
    expect(await validateWith('pipe')).toEqual(['secret file "pipe" cannot be used: it is a named pipe (FIFO), not a regular file']);
    expect(await validateWith('.')).toEqual(['secret file "." cannot be used: it is a directory, not a regular file']);
  });

  it('validate refuses a 1 GB file by its size, without reading it', async () => {
    expect(await validateWith('huge')).toEqual([`secret file "huge" cannot be used: it is ${1024 ** 3} bytes, more than a secret file may hold (1048576 bytes)`]);
  });

  it('resolving refuses /dev/zero, a FIFO (without blocking) and a 1 GB file before reading them', async () => {
    const heapBefore = process.memoryUsage().rss;
    await expect(resolver().resolve({ fromFile: '/dev/zero' }, dir)).rejects.toThrow('it is a character device, not a regular file');
    await expect(resolver().resolve({ fromFile: 'pipe' }, dir)).rejects.toThrow('it is a named pipe (FIFO), not a regular file');
    await expect(resolver().resolve({ fromFile: 'huge' }, dir)).rejects.toThrow(`it is ${1024 ** 3} bytes`);
    expect(process.memoryUsage().rss - heapBefore).toBeLessThan(200 * 1024 * 1024);
  }, 10_000);

  it('an ordinary secret file still resolves, its trailing newline dropped', async () => {
    expect(await resolver().resolve({ fromFile: 'ok' }, dir)).toBe('s3cret-value');
  });
});
