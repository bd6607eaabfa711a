import type { SourceRange } from '../../diagnostics/types.js';
import type { Span } from './hcl-tree.js';

/**
 * Maps a place in the `rules` text to the manifest. In a literal block scalar (`rules: |`) text line k
 * is source line header + k, shifted right by the block's indentation. The YAML tree keeps only the
 * scalar's range, not its source, but the range ends just after the last non-blank character (trailing
 * blanks trimmed), so the indentation is that end column less the length of the last non-blank text
 * line. YAML indents a block with spaces only, the same amount on every line, so one number fits all.
 * A one-line plain or quoted scalar shifts by its start column (plus the opening quote). Anything else
 * (folded `>` blocks join lines; multi-line quoted strings) gets the whole value's range.
 */
export function rulesSpanRange(value: SourceRange, style: string | undefined, rules: string, span: Span): SourceRange {
  if (style === 'BLOCK_LITERAL') {
    const last = rules.split('\n').map((l) => l.trimEnd()).filter((l) => l !== '').pop();
    if (last === undefined) return value;
    const indent = value.end.col - 1 - last.length;
    if (indent < 0) return value;
    return {
      file: value.file,
      start: { line: value.start.line + span.line, col: indent + span.col },
      end: { line: value.start.line + span.endLine, col: indent + span.endCol },
    };
  }
  const oneLine = value.start.line === value.end.line && span.line === 1 && span.endLine === 1;
  if (!oneLine) return value;
  const shift = style === 'QUOTE_DOUBLE' || style === 'QUOTE_SINGLE' ? 1 : style === 'PLAIN' ? 0 : undefined;
  if (shift === undefined) return value;
  const col = value.start.col + shift - 1;
  return { file: value.file, start: { line: value.start.line, col: col + span.col }, end: { line: value.start.line, col: col + span.endCol } };
}
