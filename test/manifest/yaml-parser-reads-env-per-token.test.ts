import { afterEach, describe, expect, it } from 'vitest';
import { parseYamlFile } from '../../src/manifest/yaml-tree.js';

/*
 * Regression: yaml's Node build reads `process.env.LOG_TOKENS` once per token (a debugging hook), a call
 * into the C++ environment accessor each time: about a quarter of the parser's time on 50 000 documents.
 * The loader parses with the package's browser build, the same parser without that hook.
 */
describe('the YAML parser read the environment once per token', () => {
  const original = process.env;
  afterEach(() => {
    process.env = original;
  });

  it('parsing a file of 200 documents reads no debugging variable', () => {
    const reads: string[] = [];
    process.env = new Proxy(original, {
      get(target, key) {
        if (key === 'LOG_TOKENS' || key === 'LOG_STREAM') reads.push(key);
        return Reflect.get(target, key) as unknown;
      },
    });
    const doc = (i: number): string => `kind: NoCodeModule\nname: m${i}\nspec:\n  registryModule: acme/m${i}/aws\n  versionPin: 1.0.${i}\n`;
    const parsed = parseYamlFile(Array.from({ length: 200 }, (_, i) => doc(i)).join('---\n'), 'many.yaml');
    process.env = original;
    expect(parsed.diagnostics).toEqual([]);
    expect(parsed.docs).toHaveLength(200);
    expect(reads.length).toBe(0);
  });
});
