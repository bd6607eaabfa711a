import { describe, expect, it } from 'vitest';
import { documentPieceStarts } from '../../src/manifest/yaml-document-chunks.js';
import { parseYamlDocuments, parseYamlFile } from '../../src/manifest/yaml-tree.js';
import { snapshotFile } from './yaml-tree-snapshot.js';

/*
 * parseYamlFile reads a multi-document file one `---` piece at a time (src/manifest/yaml-document-chunks.ts),
 * so that a 10 000-document file does not hold every document's intermediate lists at once. Cutting must
 * never change what is read: for every text, accepted by the fast path or not, the result must be exactly
 * the Document path's (values, positions, key ranges, styles, quoted and number sources, document ranges,
 * diagnostics). The texts put `---` where a cut could go wrong: inside quoted scalars, flow collections,
 * block scalars and plain multi-line scalars, after `...`, with content on the marker line, empty pieces.
 */

const all = snapshotFile;

function expectSame(text: string): void {
  expect(all(parseYamlFile(text, 'f.yaml')), text).toStrictEqual(all(parseYamlDocuments(text, 'f.yaml')));
}

const PIECES = [
  'kind: A\nname: a\nspec:\n  x: 1\n',
  'kind: B\nname: b # note\nspec:\n  list:\n    - { key: k, value: v }\n    - key: "q"\n      value: \'s\'\n',
  '# only a comment\n',
  '',
  'key: "open\n---\nstill quoted"\n',
  "key: 'open\n---\nstill quoted'\n",
  'key: [a,\n---\nb]\n',
  'key: { a: 1,\n---\nb: 2 }\n',
  'key: |\n  text\n---\n',
  'key: >\n  folded\n--- \n',
  'key: plain\n  continued\n---\n',
  '--- inline\n',
  '--- # comment on the marker\nk: v\n',
  '...\n',
  'k: v\n...\n',
  'k: v\n...\n# after the end\n',
  '---\n',
  '---x: not a marker\n',
  'a: ---\n',
  '- ---\n- x\n',
  'k: 1.10\n',
  'k: ~\n',
];

/** Seeded, so a failure can be replayed. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('a multi-document file read a piece at a time gives exactly what the Document path gives', () => {
  it('cuts at `---` at a line start followed by a space, a newline or the end, and nowhere else', () => {
    expect(documentPieceStarts('a: 1\n---\nb: 2\n--- x\n---\n---y\n a: ---\n---')).toEqual([0, 5, 14, 20, 37]);
    expect(documentPieceStarts('---\na: 1\n')).toEqual([0]);
  });

  it('every pair and triple of the pieces above, joined with and without markers', () => {
    let n = 0;
    for (const a of PIECES) {
      for (const b of PIECES) {
        expectSame(`${a}---\n${b}`);
        expectSame(`---\n${a}${b}`);
        expectSame(`${a}...\n---\n${b}`);
        n += 3;
      }
    }
    const next = rng(25);
    for (let i = 0; i < 600; i++) {
      const pick = (): string => PIECES[Math.floor(next() * PIECES.length)] as string;
      expectSame([pick(), pick(), pick()].join(next() < 0.5 ? '---\n' : '--- \n'));
      n++;
    }
    expect(n).toBeGreaterThan(1000);
  });

  it('a file of many generated workspaces, as the fleet benchmark writes them', () => {
    const docs = Array.from(
      { length: 300 },
      (_, w) => `kind: NoCodeWorkspace
name: ws-${w}
spec:
  module: svc${w % 7}
  description: bench workspace ${w}
  variables:
    - { key: region, value: ${w % 2 ? 'eu-west-1' : 'us-east-1'}, category: terraform }
    - { key: db_password, value: { fromEnv: DB_PASSWORD }, category: terraform, sensitive: true }
`,
    );
    const text = docs.join('---\n');
    expect(parseYamlFile(text, 'f.yaml').docs).toHaveLength(300);
    expectSame(text);
  });
});
