import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadManifests } from '../../src/manifest/index.js';

/*
 * Moved documents that pass: a chain (a → b → c, as Terraform allows) loads with no diagnostic, and each
 * move reaches the plan as written (the engine follows the chain). The refusals are in the invalid corpus
 * (test/fixtures/manifests/invalid/moved-*.yaml).
 */

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

const move = (from: string, to: string) => `kind: Moved\nname: ${from}-${to}\nspec:\n  from: NoCodeModule/${from}\n  to: NoCodeModule/${to}\n`;

describe('Moved documents', () => {
  it('a chain a → b → c loads with no diagnostic, each move as written', async () => {
    dir = await mkdtemp(join(tmpdir(), 'converge-moved-'));
    await writeFile(join(dir, 'm.yaml'), `kind: NoCodeModule\nname: c\nspec:\n  registryModule: acme/vpc/aws\n---\n${move('a', 'b')}---\n${move('b', 'c')}`);
    const result = await loadManifests(['.'], { cwd: dir });
    expect(result.diagnostics).toEqual([]);
    expect(result.desired.objects.map((o) => `${o.kind}/${o.name}`)).toEqual(['NoCodeModule/c']);
    expect(result.desired.moves?.map((m) => `${m.from.name}→${m.to.name}@${m.range.file}:${m.range.start.line}`)).toEqual(['a→b@m.yaml:6', 'b→c@m.yaml:12']);
  });
});
