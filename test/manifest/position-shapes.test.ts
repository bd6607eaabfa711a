import { describe, expect, it } from 'vitest';
import { parseYamlFile } from '../../src/manifest/yaml-tree.js';

// Documents of one load share pointer strings and shapes (src/manifest/position-shapes.ts); each must
// still answer with its own positions.
describe('documents of one shape share their pointers, each with its own positions', () => {
  it('two documents of the same structure report their own ranges; a third of another shape too', () => {
    const text = 'a: 1\nb: { "x/y~z": 2 }\n---\na: 10\nb: { "x/y~z": 20 }\n---\nb: [3, 4]\n';
    const [first, second, third] = parseYamlFile(text, 's.yaml').docs;
    expect(first?.positions['/b/x~1y~0z']?.start).toEqual({ line: 2, col: 15 });
    expect(second?.positions['/b/x~1y~0z']?.start).toEqual({ line: 5, col: 15 });
    expect(second?.keyRanges['/a']?.start).toEqual({ line: 4, col: 1 });
    expect(Object.keys(second?.positions ?? {})).toEqual(['', '/a', '/b', '/b/x~1y~0z']);
    expect(third?.positions['/b/1']?.start).toEqual({ line: 7, col: 8 });
    expect(third?.positions['/a']).toBeUndefined();
    expect(third?.scalarStyle['/b/0']).toBe('PLAIN');
  });
});
