/*
 * How a node's place is packed into one number, shared by both ways of reading YAML (yaml's Document
 * nodes and the CST fast path in yaml-cst-values.ts), so both give identical position entries.
 */

/** Nesting deeper than any manifest needs; also keeps a hostile file from exhausting the stack. */
export const MAX_DEPTH = 32;

/*
 * Where a node is, kept as a span: its start and end offsets in the file packed into one number
 * (start × SPAN + end; files are at most 5 MB, well under SPAN). A SourceRange (line and column of both
 * ends, five objects) is made only when someone asks for one, which is rare: a diagnostic, a rule's
 * lookup. Making one per node up front was a tenth of the time of validating 50 000 documents, and the
 * maps, kept with every desired object, most of the memory a large plan held beyond the objects.
 */
export const SPAN = 2 ** 24;
export const pack = (start: number, end: number): number => start * SPAN + end;

/*
 * A position entry also carries the scalar's source style in its low bits (entry = span × STYLE_SLOTS +
 * style code, 0 when the node is not a scalar), so the per-node style costs no map of its own.
 */
export const STYLES = ['PLAIN', 'QUOTE_DOUBLE', 'QUOTE_SINGLE', 'BLOCK_LITERAL', 'BLOCK_FOLDED'] as const;
export const STYLE_SLOTS = 8;
export const entryOf = (span: number, style?: string): number => span * STYLE_SLOTS + (STYLES as readonly string[]).indexOf(style ?? '') + 1;
export const spanOf = (entry: number): number => Math.floor(entry / STYLE_SLOTS);

export function escapePointer(key: string): string {
  // Almost no key holds either character; the check is cheaper than two regular expression passes.
  if (!key.includes('~') && !key.includes('/')) return key;
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}
