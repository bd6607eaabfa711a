import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/diagnostics/types.js';
import { loadManifests } from '../../src/manifest/index.js';

/** Generated inputs (too big or too binary to keep as fixtures): each gives one clean diagnostic with file:line:col. */
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'converge-hostile-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function only(name: string, content: string | Buffer): Promise<Diagnostic> {
  await writeFile(join(dir, name), content);
  const result = await loadManifests([name], { cwd: dir });
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  expect(errors).toHaveLength(1);
  const d = errors[0] as Diagnostic;
  expect(d.range?.file).toBe(name);
  expect(d.range?.start.line).toBeGreaterThanOrEqual(1);
  expect(d.range?.start.col).toBeGreaterThanOrEqual(1);
  expect(d.detail).toBeTruthy();
  expect(`${d.summary} ${d.detail}`).not.toMatch(/\n\s+at /); // no stack traces
  return d;
}

describe('hostile manifests give a diagnostic, never a throw', () => {
  it('a 10 MB file is too large', async () => {
    const d = await only('huge.yaml', 'kind: NoCodeModule\n' + '# padding\n'.repeat(1_100_000));
    expect(d.code).toBe('manifest.too-large');
    expect(d.summary).toContain('too large');
    expect(d.range?.start).toEqual({ line: 1, col: 1 });
  });

  it('binary garbage is reported as binary', async () => {
    const bytes = Buffer.alloc(4096);
    let seed = 42;
    for (let i = 0; i < bytes.length; i++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      bytes[i] = seed & 0xff;
    }
    const d = await only('garbage.yaml', bytes);
    expect(['manifest.binary', 'manifest.encoding']).toContain(d.code);
  });

  it('a NUL byte on line 3 is located', async () => {
    const d = await only('nul.yaml', Buffer.from('kind: NoCodeModule\nname: vpc\nspec: \0\n'));
    expect(d.code).toBe('manifest.binary');
    expect(d.range?.start).toEqual({ line: 3, col: 7 });
  });

  it('Latin-1 text is not UTF-8, and the bad byte is located', async () => {
    const d = await only('latin1.yaml', Buffer.concat([Buffer.from('kind: NoCodeModule\nname: caf'), Buffer.from([0xe9]), Buffer.from('\nspec: {}\n')]));
    expect(d.code).toBe('manifest.encoding');
    expect(d.range?.start).toEqual({ line: 2, col: 10 });
  });

  it('an alias bomb stops at the alias limit', async () => {
    const lines = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 10; i++) lines.push(`a${i}: &a${i} [${Array(10).fill(`*a${i - 1}`).join(', ')}]`);
    const d = await only('bomb.yaml', `kind: NoCodeModule\nname: vpc\nspec:\n  registryModule: acme/vpc/aws\n${lines.map((l) => `  ${l}`).join('\n')}\n`);
    expect(d.code).toBe('yaml.alias-limit');
  });

  it('1000-level flow nesting', async () => {
    const d = await only('deep-flow.yaml', `kind: NoCodeModule\nname: vpc\nspec: ${'['.repeat(1000)}${']'.repeat(1000)}\n`);
    expect(d.code).toBe('yaml.too-deep');
  });

  it('1000-level block nesting', async () => {
    let text = 'kind: NoCodeModule\nname: vpc\nspec:\n';
    for (let i = 1; i <= 1000; i++) text += `${' '.repeat(i)}k${i}:\n`;
    const d = await only('deep-block.yaml', text);
    expect(d.code).toBe('yaml.too-deep');
  });

  it('a 40-level document (deep, but parseable) is too deep for a manifest', async () => {
    let text = 'kind: NoCodeModule\nname: vpc\nspec:\n';
    for (let i = 1; i <= 40; i++) text += `${'  '.repeat(i)}k${i}:\n`;
    const d = await only('deep40.yaml', text);
    expect(d.code).toBe('yaml.too-deep');
  });
});

describe('paths', () => {
  it('directories are searched recursively, skipping hidden folders and node_modules; names are relative to cwd', async () => {
    const root = join(dir, 'tree');
    await mkdir(join(root, 'a', 'b'), { recursive: true });
    await mkdir(join(root, '.hidden'), { recursive: true });
    await mkdir(join(root, 'node_modules', 'x'), { recursive: true });
    const mod = (name: string) => `kind: NoCodeModule\nname: ${name}\nspec:\n  registryModule: acme/${name}/aws\n`;
    await writeFile(join(root, 'a', 'one.yaml'), mod('one'));
    await writeFile(join(root, 'a', 'b', 'two.yml'), mod('two') + '---\n' + mod('three'));
    await writeFile(join(root, 'a', 'b', 'notes.txt'), 'not yaml');
    await writeFile(join(root, '.hidden', 'bad.yaml'), 'kind: Nope\n');
    await writeFile(join(root, 'node_modules', 'x', 'bad.yaml'), 'kind: Nope\n');
    const result = await loadManifests(['.'], { cwd: root });
    expect(result.diagnostics).toEqual([]);
    expect(result.files).toEqual(['a/b/two.yml', 'a/one.yaml']);
    expect([...result.sources.keys()].sort()).toEqual(['a/b/two.yml', 'a/one.yaml']);
    expect(result.desired.objects.map((o) => o.name).sort()).toEqual(['one', 'three', 'two']);
    expect(result.desired.settings).toEqual({ spec: {} });
    const three = result.desired.objects.find((o) => o.name === 'three');
    expect(three?.baseDir).toBe(join(root, 'a', 'b'));
    expect(three?.positions['/spec/registryModule']).toEqual({ file: 'a/b/two.yml', start: { line: 9, col: 19 }, end: { line: 9, col: 33 } });
    // default path is '.'
    expect((await loadManifests([], { cwd: root })).files).toEqual(result.files);
  });

  it('a missing path is an error diagnostic, not a throw', async () => {
    const result = await loadManifests(['does-not-exist.yaml'], { cwd: dir });
    expect(result.diagnostics.map((d) => [d.severity, d.summary])).toEqual([['error', 'no such file or directory: does-not-exist.yaml']]);
  });
});
