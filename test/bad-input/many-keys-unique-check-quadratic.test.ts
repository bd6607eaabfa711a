import { describe, expect, it } from 'vitest';
import { parseYamlFile } from '../../src/manifest/yaml-tree.js';

/*
 * Regression: the YAML parser's own unique-key check (uniqueKeys) compares each key with every earlier
 * one; a 4 MB mapping of 100 000 keys took 300 s to validate. Keys are now checked with a Set while the
 * tree is converted, with the same message at the repeated key. bench/hostile-input.mjs times it; here the
 * test's own timeout is the bound (the quadratic check took over a minute for 50 000 keys).
 */
describe('the unique-key check was quadratic', () => {
  it('50 000 distinct keys parse, each kept', () => {
    const text = 'spec:\n' + Array.from({ length: 50_000 }, (_, i) => `  k${i}: ${i}\n`).join('');
    const parsed = parseYamlFile(text, 'keys.yaml');
    expect(parsed.diagnostics).toEqual([]);
    expect(Object.keys((parsed.docs[0]?.value as { spec: object }).spec)).toHaveLength(50_000);
  });

  it('a repeated key is still a syntax error at the repeat', () => {
    const parsed = parseYamlFile('kind: NoCodeModule\nname: a\nspec:\n  x: 1\n  y: 2\n  x: 3\n', 'dup.yaml');
    expect(parsed.diagnostics.map((d) => [d.code, d.summary, d.range?.start])).toEqual([['yaml.syntax', 'YAML syntax error: Map keys must be unique', { line: 6, col: 3 }]]);
    expect(parsed.docs).toEqual([]);
  });

  it('the same key in two different mappings is fine', () => {
    const parsed = parseYamlFile('a: { x: 1 }\nb: { x: 2 }\n', 'ok.yaml');
    expect(parsed.diagnostics).toEqual([]);
  });
});
