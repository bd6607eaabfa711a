import type { JsonValue } from '../model/json.js';
import type { FieldChange } from '../plan/types.js';
import type { FieldLine } from './format.js';

/*
 * A multi-line string (a Nomad ACL policy's HCL `rules`) shown as one JSON-escaped string hides what
 * changed; like Terraform's `<<-EOT` heredoc diff, it is shown line by line, with `-`/`+` on the
 * lines that differ and the others as context. Every view that lists fields (the text plan, the
 * Markdown plan, the drift text and Markdown) goes through `shownFields`, so none of them falls back
 * to the escaped string.
 */

/** Both sides when either is a multi-line string and neither is anything but a string or absent. */
export function multilineSides(before: JsonValue, after: JsonValue): { before: string[]; after: string[] } | undefined {
  const isText = (v: JsonValue): v is string | null => v === null || typeof v === 'string';
  if (!isText(before) || !isText(after)) return undefined;
  if (!(before ?? '').includes('\n') && !(after ?? '').includes('\n')) return undefined;
  return { before: before === null ? [] : splitLines(before), after: after === null ? [] : splitLines(after) };
}

/** Lines without the final newline's empty tail (HCL files end with one). */
function splitLines(s: string): string[] {
  const lines = s.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export type DiffLine = { op: ' ' | '-' | '+'; text: string };

/** Longest-common-subsequence line diff; policies are short, so the quadratic table is fine. */
export function lineDiff(a: readonly string[], b: readonly string[]): DiffLine[] {
  const n = a.length;
  const m = b.length;
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      const row = lcs[i] as number[];
      row[j] = a[i] === b[j] ? (lcs[i + 1]?.[j + 1] ?? 0) + 1 : Math.max(lcs[i + 1]?.[j] ?? 0, row[j + 1] ?? 0);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      out.push({ op: ' ', text: a[i] as string });
      i++;
      j++;
    } else if (i < n && (j >= m || (lcs[i + 1]?.[j] ?? 0) >= (lcs[i]?.[j + 1] ?? 0))) {
      // Removed lines before added ones, as in a unified diff.
      out.push({ op: '-', text: a[i] as string });
      i++;
    } else {
      out.push({ op: '+', text: b[j] as string });
      j++;
    }
  }
  return out;
}

/**
 * `path: <<-EOT`, the diffed lines (`- `, `+ `, or two spaces), then `EOT`: the text view's form of a
 * multi-line string field.
 */
export function heredocLines(path: string, sides: { before: string[]; after: string[] }): string[] {
  return [`${path}: <<-EOT`, ...lineDiff(sides.before, sides.after).map((l) => `${l.op} ${l.text}`), 'EOT'];
}

type Sides = { before: string[]; after: string[] };

/** A displayed field line, with both sides split into lines when it is a plain multi-line string. */
export interface ShownField {
  line: FieldLine;
  sides?: Sides;
}

/**
 * Pairs each display line with its raw field's lines when that field is a non-sensitive multi-line
 * string. `create`: the before side is absent whatever the field says (a new object).
 */
export function shownFields(fields: readonly FieldChange[], lines: readonly FieldLine[], opts: { create: boolean }): ShownField[] {
  const plain = new Map(fields.filter((f) => !f.sensitive).map((f) => [f.path, f]));
  return lines.map((line) => {
    const raw = plain.get(line.path);
    const sides = raw && multilineSides(opts.create ? null : raw.before, raw.after);
    return sides ? { line, sides } : { line };
  });
}

/**
 * The same heredoc inside a Markdown `diff` fence: the `-`/`+` markers stay in column 0, where GitHub
 * colours them, and the `path: <<-EOT` / `EOT` frame is indented like a context line.
 */
export function heredocDiffLines(path: string, sides: Sides): string[] {
  const lines = heredocLines(path, sides);
  return lines.map((l, i) => (i === 0 || i === lines.length - 1 ? `  ${l}` : l).trimEnd());
}
