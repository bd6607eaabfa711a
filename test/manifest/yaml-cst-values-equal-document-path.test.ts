import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ShapeTable } from '../../src/manifest/position-shapes.js';
import { scanCommonYaml } from '../../src/manifest/yaml-block-scanner.js';
import { readCommonYaml } from '../../src/manifest/yaml-cst-values.js';
import { parseYamlDocuments, parseYamlFile, treesOfFastDocs } from '../../src/manifest/yaml-tree.js';
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

/**
 * The block scanner's part: no comments, block scalars or multi-line scalars, nor what every fast reader
 * leaves to yaml (keys that are not strings, hexadecimal and octal numbers, numbers past 15 digits).
 */
const PLAINEST_SCALARS = SCALARS.filter((s) => !/\n|^$|^0[xo]|^\d{16}/.test(s));
const PLAINEST_KEYS = KEYS.filter((k) => !['1', 'true', 'null'].includes(k));

/**
 * A random document of block and flow collections, scalars, comments and empty values (`plainest`: mostly
 * what the block scanner reads, so that its rules meet every combination and every mutation of them).
 */
function randomDoc(next: () => number, depth: number, indent: string, plainest = false): string {
  const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T;
  const lines: string[] = [];
  const n = 1 + Math.floor(next() * 4);
  const seq = next() < 0.3;
  const used = new Set<string>();
  for (let i = 0; i < n; i++) {
    const lead = seq ? '- ' : `${pick(plainest ? PLAINEST_KEYS : KEYS)}:`;
    if (!seq && used.has(lead) && next() < 0.8) continue;
    used.add(lead);
    if (next() < 0.1) lines.push(`${indent}# a comment`);
    const r = next();
    if (depth < 3 && r < 0.35) {
      if (seq) lines.push(`${indent}-${next() < 0.5 ? '\n' + indent + '  ' : ' '}${randomDoc(next, depth + 1, indent + '  ', plainest).trimStart()}`);
      else lines.push(`${indent}${lead}\n${randomDoc(next, depth + 1, indent + (next() < 0.8 ? '  ' : ''), plainest)}`);
    } else if (r < 0.5) {
      const items = Array.from({ length: Math.floor(next() * 3) }, () => pick(['a', '"b"', '1', 'x y', '{ k: v }', '[1, 2]']));
      const flow = next() < 0.5 ? `[${items.join(', ')}]` : `{ ${items.map((v, j) => `k${j}: ${v}`).join(', ')} }`;
      lines.push(`${indent}${seq ? '- ' : lead + ' '}${flow}${next() < 0.2 ? ' # trailing' : ''}`);
    } else if (r < 0.6 && !plainest) {
      lines.push(`${indent}${seq ? '-' : lead} ${pick(['|', '>', '|-', '>+'])}\n${indent}  line one\n${indent}  line two`);
    } else if (r < 0.6) {
      const body = pick([['a'], ['line one', 'line two'], ['x', '', 'y'], ['a', '  more', 'b'], ['# not a comment', 'k: v'], ['a', '', '']]);
      lines.push(`${indent}${seq ? '-' : lead} ${pick(['|', '|-'])}\n${body.map((l) => (l === '' ? '' : `${indent}  ${l}`)).join('\n')}`);
    } else if (r < 0.7) {
      lines.push(`${indent}${seq ? '-' : lead}${!plainest && next() < 0.3 ? ' # empty' : ''}`);
    } else {
      lines.push(`${indent}${seq ? '- ' : lead + ' '}${pick(plainest ? PLAINEST_SCALARS : SCALARS).replace(/\n/g, '\n' + indent)}`);
    }
  }
  if (!plainest && next() < 0.1) lines.push(`${indent}# trailing comment`);
  return lines.join('\n') + '\n';
}

const MUTATIONS = [' ', '\n', '#', ':', '-', '"', "'", '|', '>', 'x', '1', '{', ']', ',', '&a ', '*a', '!!str ', '? ', '\t', '---\n', '...\n'];

function mutate(text: string, next: () => number): string {
  const at = Math.floor(next() * (text.length + 1));
  if (next() < 0.3) return text.slice(0, at) + text.slice(at + 1);
  return text.slice(0, at) + MUTATIONS[Math.floor(next() * MUTATIONS.length)] + text.slice(at);
}

const all = snapshotFile;

const counts = { files: 0, accepted: 0, scanned: 0 };

/** Each fast reader, wherever it accepts the file, against the Document path; and the loader's choice among them. */
function expectSameAsDocumentPath(text: string, name: string): void {
  counts.files++;
  const fast = readCommonYaml(text, new ShapeTable());
  const scanned = scanCommonYaml(text, new ShapeTable());
  if (fast === undefined && scanned === undefined) return;
  const slow = parseYamlDocuments(text, name);
  expect(slow.diagnostics, `${name}:\n${text}`).toEqual([]);
  if (fast !== undefined) {
    counts.accepted++;
    expect(all(treesOfFastDocs(fast, text, name, new ShapeTable())), `CST reader, ${name}:\n${text}`).toStrictEqual(all(slow));
  }
  if (scanned !== undefined) {
    counts.scanned++;
    expect(all(treesOfFastDocs(scanned, text, name, new ShapeTable())), `block scanner, ${name}:\n${text}`).toStrictEqual(all(slow));
  }
  expect(all(parseYamlFile(text, name)), `${name}:\n${text}`).toStrictEqual(all(slow));
}

describe('the CST fast path gives exactly what the Document path gives, whenever it accepts a file', () => {
  afterAll(() => {
    process.stderr.write(`CST reader accepted ${counts.accepted}, block scanner ${counts.scanned}, of ${counts.files} files\n`);
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

  it('a generated corpus of what the block scanner reads (comments and literal block scalars, no multi-line plain or quoted scalars), and mutations of it', () => {
    const next = rng(23);
    const before = counts.scanned;
    for (let i = 0; i < 3000; i++) {
      const docs = Array.from({ length: 1 + Math.floor(next() * 3) }, () => randomDoc(next, 0, '', true));
      const text = (next() < 0.3 ? '---\n' : '') + docs.join('---\n');
      expectSameAsDocumentPath(text, `plainest ${i}`);
      let mutated = text;
      for (let m = 0; m < 3; m++) {
        mutated = mutate(mutated, next);
        expectSameAsDocumentPath(mutated, `plainest ${i} (mutation ${m})`);
      }
    }
    expect(counts.scanned - before).toBeGreaterThan(2000);
  });

  it('edge cases of the block scanner: indicators inside plain scalars and keys, empty and nested flow, sequences under keys, documents, numbers', () => {
    const cases = [
 'a[b]: c\n', 'a{b}: c\n', 'a,b: c\n', 'key: a[b]\n', 'key: a, b\n', 'key: ---\n', 'key: ...\n', 'k:\n- key:\n  - a\n', '- key:\n  - a\n',
 'key: :x\n', 'key: ?x\n', 'key: -x\n', '"a": 1\n', "'a''b': 1\n", 'a:b: c\n', 'name: héllo\n', 'name: 😀x\n', 'key: "a\\"b"\n', 'a: {}\nb: []\nc: { }\nd: [ ]\n',
 'a: [[a], {b: c}]\n', 'a: { "k": v }\n', "a: { 'k': \"v\" }\n", 'a: {a: b c}\n', 'a: [a b, c]\n', 'a: {a: http://x}\n', 'a: [http://x:80/y]\n', 'key: a:b\n',
 '-  key: v\n   k2: v2\n', 'key:   value\n', 'key:  [a]\n', 'a: 1\nb:', 'a: 1', 'a: 1\n\n\nb: 2\n\n', '---\n\na: 1\n', '---\n---\n', "key: 'multi'\n", 'a#b: c\n', 'k: a#b\n',
 '- "x": 1\n  y: 2\n', '-\n  a: 1\n', '-\n  - a\n', '- a\n- b\n', 'k: <<\n', 'k: =\n', 'a:\n  b:\n    c: 1\n  d: 2\ne: 3\n', 'a:\n- 1\n-\n- 2\nb: x\n', 'a: [a,b]\n', 'a: {a: 1,b: 2}\n',
 'a: [ a , b ]\n', 'a: "x" \n', 'a: x\n  y\n', 'a: \'\'\n', 'a: ""\n', 'a: [""]\n', 'a: { b: "" }\n', '- \n', '-\n', '- []\n- {}\n', 'a: -1\nb: +2\nc: .5\nd: 1.\ne: 1e5\n', 'a: 1.0\n',
 'a: 0\nb: 00\nc: -0\n', 'a: True\nb: NULL\nc: ~\n', 'a: null\n', 'a: [null, ~, true]\n', 'a: { b: null }\n', 'k: "\\\\"\n', "k: 'a\\\\b'\n", 'a: [a: b]\n', 'a: {a}\n', 'a: [a, b,]\n',
 'a:\n  - b\n  -  c\n', 'a:\n  -   b: 1\n      c: 2\n', 'a: ?\n', 'a: "x":\n', 'a: b\n---\nc: d\n---\n', 'x: 1\n...\n', 'a: [a]  \n', 'aa:\n  bb:\n cc: 1\n', '? a\n: b\n',
 'a: !!str x\n', 'a: &x y\n', 'a: *x\n', 'k: v\n k2: v\n', 'k: |\n  x\n', 'k: >-\n  x\n', '%YAML 1.2\n---\na: 1\n', 'k: [a,\n  b]\n', 'a: {b: [1, {c: d}]}\n', 'a:\n\n  b: 1\n',
 '- - a\n', 'a: b: c\n', '- a: 1\n- b: 2\n  c: 3\n', 'a: x\n-\n', 'k: 12345678901234567\n', 'k: 0x10\n', 'k: 1_000\n', 'k: 2026-11-25\n', 'k: yes\n', 'k: .inf\n', 'k: "\\u00e9"\n', 'k: "a\\nb"\n',
      '# header: "x"\nkind: a\n', '---\n# c\na: 1\n', 'a: 1\n# c\nb: 2\n', 'a:\n  # c\n  b: 1\n', 'a:\n  b: 1\n  # c\n  d: 2\n', 'a:\n  b: 1\n# c\nd: 2\n',
      'a:\n  b: 1\n  # c\nd: 2\n', 'a: 1\n# c\n', '- a\n# c\n- b\n', '-\n  # c\n  a: 1\n', 'a:\n# c\n- 1\n', 'a:\n# c\nb: 1\n', 'a: 1\n  # c\nb: 2\n', 'a: 1\n#c\n\n#d\nb: 2\n',
      'a: 1\n# c\n---\nb: 2\n', '- a: 1\n  # c\n  b: 2\n', 'a:\n  - x\n  # c\n  - y\n', 'a:\n\n  # c\n\n  b: 1\n',
      'a: |\n  x\n  y\nb: 1\n', 'a: |-\n  x\n\n  y\n\n\nb: 1\n', '- |\n  x\n- |\n   y\n', '- k: |\n    x\n  j: 2\n', 'a: |\n  x\n    y\n# c\nb: 1\n', 'a: |\n  # x\n  k: v\n',
      'a: |\n  x', 'a: |\n\n  x\n', 'a: |\n  x\n  \n  y\n', 'a: |+\n  x\n', 'a: >\n  x\n', 'a: |2\n  x\n', 'a: | # c\n  x\n', 'a:\n  b: |\n    x\n  c: |-\n    y\n',
      'a: x # c\n', 'a:\n  b: x  # c\nd: 1\n', 'a: "x" # c\n', "a: 'x#y' #c\n", 'a: [a, b] # c\n', '- x # c\n- y\n', '- { k: v } # c\n', 'a: x#y\n', 'a: "x"# c\n', 'a: x # c: d\n',
      'a: # c\n  b: 1\n', 'a: | # c\n  x\n', 'a: x #\n', 'a:\n  - b # c\nz: 1\n', 'k: "a # b"\n', 'a: 1 # c\n---\nb: 2 # d\n',
    ];
    const before = counts.scanned;
    for (const [i, text] of cases.entries()) expectSameAsDocumentPath(text, `edge case ${i}`);
    expect(counts.scanned - before).toBeGreaterThan(60);
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
    expect(scanCommonYaml(text, new ShapeTable())).toHaveLength(3);
    expectSameAsDocumentPath(text, 'bench-like.yaml');
  });
});
