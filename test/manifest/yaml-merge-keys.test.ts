import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadManifests } from '../../src/manifest/index.js';
import { parseYamlFile } from '../../src/manifest/yaml-tree.js';

/*
 * Regression: YAML that users bring from docker-compose and GitLab CI uses merge keys (`<<: *defaults`).
 * converge said "unknown field `<<`" (and reported the merged fields missing). Merge keys now work within
 * a document, in every reader. An alias of an anchor defined in an earlier `---` document got the hint
 * "define the anchor before using it", although it was defined before: anchors do not cross documents.
 */

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function load(files: Record<string, string>) {
  dir = await mkdtemp(join(tmpdir(), 'converge-merge-'));
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return loadManifests(Object.keys(files), { cwd: dir });
}

const MODULE = 'kind: NoCodeModule\nname: vpc\nspec:\n  registryModule: acme/vpc/aws\n';

const WORKSPACE = `kind: NoCodeWorkspace
name: vpc-dev
spec:
  module: vpc
  project: Platform
  variables:
    - &region { key: region, value: eu-west-1, category: env, description: where }
    - <<: *region
      key: zone
      value: eu-west-1a
`;

describe('YAML merge keys', () => {
  it('merge the anchored mapping into this one; keys written here win', async () => {
    const r = await load({ 'module.yaml': MODULE, 'ws.yaml': WORKSPACE });
    expect(r.diagnostics).toEqual([]);
    const ws = r.desired.objects.find((o) => o.kind === 'NoCodeWorkspace');
    expect(ws?.kind === 'NoCodeWorkspace' && ws.spec.variables?.[1]).toMatchObject({ key: 'zone', value: 'eu-west-1a', category: 'env', description: 'where' });
    // A merged value is placed at the alias that brought it; a value written here at itself.
    expect(ws?.positions['/spec/variables/1/category']).toEqual({ file: 'ws.yaml', start: { line: 8, col: 11 }, end: { line: 8, col: 18 } });
    expect(ws?.positions['/spec/variables/1/value']?.start).toEqual({ line: 10, col: 14 });
  });

  it('report a bad merged value at the alias that merged it', async () => {
    const r = await load({ 'module.yaml': MODULE, 'ws.yaml': WORKSPACE.replace('category: env', 'category: bogus') });
    const bad = r.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.range?.start.line}:${d.range?.start.col} ${d.summary}`);
    expect(bad.some((b) => b.startsWith('7:') && b.includes('category'))).toBe(true);
    expect(bad.some((b) => b.startsWith('8:11') && b.includes('category'))).toBe(true);
    expect(JSON.stringify(r.diagnostics)).not.toContain('unknown field `<<`');
  });

  it('accept a list of aliases and an inline mapping, the earlier source winning, in every reader', () => {
    const text = 'a: &a { x: 1, y: 1 }\nb: &b { y: 2, z: 2 }\nc:\n  <<: [*a, *b]\n  x: 0\nd:\n  <<:\n    k: v\n  l: w\n';
    const parsed = parseYamlFile(text, 'f.yaml');
    expect(parsed.diagnostics).toEqual([]);
    expect(parsed.docs[0]?.value).toEqual({ a: { x: 1, y: 1 }, b: { y: 2, z: 2 }, c: { x: 0, y: 1, z: 2 }, d: { l: 'w', k: 'v' } });
    // No alias at all: the plainest readers must not take `<<` for a field name either.
    expect(parseYamlFile('d:\n  <<:\n    k: v\n  l: w\n', 'g.yaml').docs[0]?.value).toEqual({ d: { l: 'w', k: 'v' } });
    expect(parseYamlFile("d:\n  '<<': quoted is a plain key\n", 'h.yaml').docs[0]?.value).toEqual({ d: { '<<': 'quoted is a plain key' } });
  });

  it('refuse to merge something that is not a mapping, saying what `<<` takes', () => {
    const parsed = parseYamlFile('a: &a [1]\nb:\n  <<: *a\n', 'f.yaml');
    expect(parsed.diagnostics[0]).toMatchObject({ code: 'yaml.merge', range: { start: { line: 3, col: 7 } } });
  });

  it('say that anchors do not cross `---` documents', async () => {
    const r = await load({ 'module.yaml': MODULE, 'ws.yaml': `${WORKSPACE}---\n${WORKSPACE.replace('vpc-dev', 'vpc-prod').replace(/ {4}- &region.*\n/, '    - *region\n').replace(/ {4}- <<[^]*$/, '')}` });
    const d = r.diagnostics.find((x) => x.code === 'yaml.alias');
    expect(d?.range?.start.line).toBe(18);
    expect(d?.detail).toContain('&region is defined on line 7, in an earlier document');
    expect(d?.detail).toContain('anchors do not cross');
  });
});
