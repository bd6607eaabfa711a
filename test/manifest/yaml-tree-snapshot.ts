import type { ParsedFile, YamlTree } from '../../src/manifest/yaml-tree.js';

/** Everything a parsed document holds, as plain data, so two ways of reading one text compare with toStrictEqual. */
export const snapshotTree = (doc: YamlTree): Record<string, unknown> => ({
  value: doc.value,
  positions: Object.entries(doc.positions),
  keyRanges: Object.entries(doc.keyRanges),
  styles: Object.entries(doc.scalarStyle),
  rawQuoted: doc.rawQuoted,
  numberSource: doc.numberSource,
  range: doc.range,
});

export const snapshotFile = (parsed: ParsedFile): unknown => ({ docs: parsed.docs.map(snapshotTree), diagnostics: parsed.diagnostics });
