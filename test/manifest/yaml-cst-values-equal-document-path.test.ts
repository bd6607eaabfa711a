import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ShapeTable } from '../../src/manifest/position-shapes.js';
import { readCommonYaml } from '../../src/manifest/yaml-cst-values.js';
import { parseYamlDocuments, parseYamlFile } from '../../src/manifest/yaml-tree.js';
import { snapshotFile } from './yaml-tree-snapshot.js';

/*
 * The loader reads common YAML straight from yaml's CST (src/manifest/yaml-cst-values.ts) and everything
 * else through yaml's Documents. Whenever the fast path accepts a file, it must give exactly what the
 * Document path gives: the same values, the same pointers in the same order with the same ranges, key
 * ranges, styles, quoted sources and number sources; and the Document path must have had nothing to say
 * about that file (a file with any diagnostic must be left to it).
 */

function yamlFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yamlFiles(path, out);
    else if (/\.ya?ml$/i.test(name)) out.push(path);
  }
  return out;
}

/** Seeded, so a failure can be replayed. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const SCALARS = ['plain text', 'a: b', '"quoted \\" text"', "'single ''q'''", '1', '-0', '+7', '007', '1.5', '1.10', '-.5', '+1.', '1e3', '2E-2', '0x1F', '0o17', '.inf', 'true', 'False', 'NULL', '~', '', '1h30m', 'multi\n    line plain', '"two\n    lines"', 'x # comment', '12345678901234567890', 'yes', 'on', '2026-11-25'];
const KEYS = ['name', 'spec', '"quoted/key"', "'a~b'", 'key with spaces', '1', 'true', 'null', 'x'];

/** A random document of block and flow collections, scalars, comments and empty values. */
function randomDoc(next: () => number, depth: number, indent: string): string {
  const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T;
  const lines: string[] = [];
  const n = 1 + Math.floor(next() * 4);
  const seq = next() < 0.3;
  const used = new Set<string>();
  for (let i = 0; i < n; i++) {
    const lead = seq ? '- ' : `${pick(KEYS)}:`;
    if (!seq && used.has(lead) && next() < 0.8) continue;
    used.add(lead);
    if (next() < 0.1) lines.push(`${indent}# a comment`);
    const r = next();
    if (depth < 3 && r < 0.35) {
      if (seq) lines.push(`${indent}-${next() < 0.5 ? '\n' + indent + '  ' : ' '}${randomDoc(next, depth + 1, indent + '  ').trimStart()}`);
      else lines.push(`${indent}${lead}\n${randomDoc(next, depth + 1, indent + (next() < 0.8 ? '  ' : ''))}`);
    } else if (r < 0.5) {
      const items = Array.from({ length: Math.floor(next() * 3) }, () => pick(['a', '"b"', '1', 'x y', '{ k: v }', '[1, 2]']));
      const flow = next() < 0.5 ? `[${items.join(', ')}]` : `{ ${items.map((v, j) => `k${j}: ${v}`).join(', ')} }`;
      lines.push(`${indent}${seq ? '- ' : lead + ' '}${flow}${next() < 0.2 ? ' # trailing' : ''}`);
    } else if (r < 0.6) {
      lines.push(`${indent}${seq ? '-' : lead} ${pick(['|', '>', '|-', '>+'])}\n${indent}  line one\n${indent}  line two`);
    } else if (r < 0.7) {
      lines.push(`${indent}${seq ? '-' : lead}${next() < 0.3 ? ' # empty' : ''}`);
    } else {
      lines.push(`${indent}${seq ? '- ' : lead + ' '}${pick(SCALARS).replace(/\n/g, '\n' + indent)}`);
    }
  }
  if (next() < 0.1) lines.push(`${indent}# trailing comment`);
  return lines.join('\n') + '\n';
}

const MUTATIONS = [' ', '\n', '#', ':', '-', '"', "'", '|', '>', 'x', '1', '{', ']', ',', '&a ', '*a', '!!str ', '? ', '\t', '---\n', '...\n'];

function mutate(text: string, next: () => number): string {
  const at = Math.floor(next() * (text.length + 1));
  if (next() < 0.3) return text.slice(0, at) + text.slice(at + 1);
  return text.slice(0, at) + MUTATIONS[Math.floor(next() * MUTATIONS.length)] + text.slice(at);
}

const all = snapshotFile;

const counts = { files: 0, accepted: 0 };

function expectSameAsDocumentPath(text: string, name: string): void {
  counts.files++;
  const fast = readCommonYaml(text, new ShapeTable());
  if (fast === undefined) return;
  counts.accepted++;
  const slow = parseYamlDocuments(text, name);
  const quick = parseYamlFile(text, name);
  expect(all(quick), `${name}:\n${text}`).toStrictEqual(all(slow));
  expect(slow.diagnostics, `${name}:\n${text}`).toEqual([]);
}

describe('the CST fast path gives exactly what the Document path gives, whenever it accepts a file', () => {
  afterAll(() => {
    process.stderr.write(`fast path accepted ${counts.accepted} of ${counts.files} files\n`);
  });
  const root = join(import.meta.dirname, '..', '..');
  const files = [...yamlFiles(join(root, 'test', 'fixtures')), ...yamlFiles(join(root, 'examples'))];

  it('every YAML file under test/fixtures and examples/, and mutations of each', () => {
    const next = rng(14);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      expectSameAsDocumentPath(text, file);
      let mutated = text;
      for (let i = 0; i < 20; i++) {
        mutated = i % 5 === 0 ? mutate(text, next) : mutate(mutated, next);
        expectSameAsDocumentPath(mutated, `${file} (mutation ${i})`);
      }
    }
    expect(files.length).toBeGreaterThan(50);
  });

  it('a generated corpus of block and flow collections, scalars of every core form, comments, several documents', () => {
    const next = rng(5);
    let accepted = 0;
    for (let i = 0; i < 3000; i++) {
      const docs = Array.from({ length: 1 + Math.floor(next() * 3) }, () => randomDoc(next, 0, ''));
      const text = docs.join(next() < 0.5 ? '---\n' : '...\n---\n');
      const before = counts.accepted;
      expectSameAsDocumentPath(text, `generated ${i}`);
      accepted += counts.accepted - before;
      expectSameAsDocumentPath(mutate(text, next), `generated ${i} (mutated)`);
    }
    // The fast path must actually carry most ordinary input, or it saves nothing.
    expect(accepted).toBeGreaterThan(200);
  });

  it('manifests like those of the benchmark (bench/validate.mjs) are read by the fast path, the same as by the Document path', () => {
    const text = `kind: NomadAuthMethod
name: oidc-1
spec:
  type: OIDC
  maxTokenTtl: 1h30m
  config:
    oidcClientSecret: { fromEnv: OIDC_SECRET_1 }
    oidcScopes: [openid, groups]
    claimMappings: { email: email, name: name }
    expirationLeeway: 30s
---
kind: NomadBindingRule
name: rule-2
spec:
  selector: '"team-2" in list.groups and value.email matches ".*@acme\\\\.example"'
---
kind: NoCodeWorkspace
name: ws-3
spec:
  versionPin: 1.3.0
  variables:
    - key: region
      value: eu-west-1
    - key: db_password
      sensitive: true
      value: { fromEnv: DB_PASSWORD_3 }
  upgrade: { confirm: auto }
`;
    expect(readCommonYaml(text, new ShapeTable())).toHaveLength(3);
    expectSameAsDocumentPath(text, 'bench-like.yaml');
  });
});
