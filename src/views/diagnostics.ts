import { styleText } from 'node:util';
import type { Diagnostic } from '../diagnostics/types.js';
import { SENSITIVE_PLACEHOLDER } from '../plan/types.js';

export interface DiagnosticsTextOptions {
  /** Display path → file text, to quote the offending line. */
  sources: ReadonlyMap<string, string>;
  color: boolean;
}

/** Codes whose source line holds a secret the user wrote down: never echo the value back. */
const HIDE_SOURCE = new Set(['secret.literal']);

/** Longest source line quoted under a diagnostic, and how much of it comes before the column. */
const MAX_QUOTED_CHARS = 200;
const QUOTE_BEFORE = 60;

const paint = (on: boolean, style: Parameters<typeof styleText>[0], s: string): string => (on ? styleText(style, s, { validateStream: false }) : s);

/**
 * Line lookup by a per-file index of line starts, built once per render: scanning from the top for
 * every diagnostic was quadratic (15 000 diagnostics in one file took 8 s to render).
 */
function sourceLines(sources: ReadonlyMap<string, string>): (file: string, line: number) => string | undefined {
  const starts = new Map<string, number[]>();
  return (file, line) => {
    const text = sources.get(file);
    if (text === undefined) return undefined;
    let index = starts.get(file);
    if (index === undefined) {
      index = [0];
      for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) index.push(i + 1);
      starts.set(file, index);
    }
    const start = index[line - 1];
    if (start === undefined || line < 1) return undefined;
    const end = text.indexOf('\n', start);
    return text.slice(start, end < 0 ? text.length : end).replace(/\r$/, '');
  };
}

/**
 * Terraform-style text (internal/command/format/diagnostic.go):
 *   Error: <summary>
 *
 *     on <file> line N, column M:
 *     N | <source line>
 *       |     ^^^^
 *
 *   <detail>
 */
export function renderDiagnosticsText(diags: Diagnostic[], opts: DiagnosticsTextOptions): string {
  const blocks: string[] = [];
  const sourceLine = sourceLines(opts.sources);
  for (const d of diags) {
    const lines: string[] = [];
    const head = d.severity === 'error' ? paint(opts.color, ['bold', 'red'], 'Error:') : paint(opts.color, ['bold', 'yellow'], 'Warning:');
    lines.push(`${head} ${paint(opts.color, 'bold', d.summary)}`);
    const r = d.range;
    if (r) {
      lines.push('');
      lines.push(`  on ${r.file} line ${r.start.line}, column ${r.start.col}:`);
      const raw = sourceLine(r.file, r.start.line);
      // A literal secret's line is quoted up to the value, the value itself as `(sensitive)`.
      const src = raw !== undefined && HIDE_SOURCE.has(d.code) ? `${raw.slice(0, r.start.col - 1)}${SENSITIVE_PLACEHOLDER}` : raw;
      if (src !== undefined) {
        const num = String(r.start.line);
        const pad = ' '.repeat(num.length);
        // A multi-megabyte line (a hostile or generated value) is quoted as a window around the column.
        const from = src.length > MAX_QUOTED_CHARS ? Math.max(0, Math.min(r.start.col - 1 - QUOTE_BEFORE, src.length - MAX_QUOTED_CHARS)) : 0;
        const to = Math.min(src.length, from + MAX_QUOTED_CHARS);
        const shown = `${from > 0 ? '…' : ''}${src.slice(from, to)}${to < src.length ? '…' : ''}`;
        // Keep tabs in the padding so the carets line up under tab-indented text.
        const lead = (from > 0 ? ' ' : '') + [...src.slice(from, Math.max(from, r.start.col - 1))].map((c) => (c === '\t' ? '\t' : ' ')).join('');
        const endCol = r.end.line === r.start.line && !HIDE_SOURCE.has(d.code) ? r.end.col : src.length + 1;
        const width = Math.max(1, Math.min(endCol, to + 1) - Math.max(r.start.col, from + 1));
        lines.push(`  ${num} | ${shown}`);
        lines.push(`  ${pad} | ${lead}${paint(opts.color, d.severity === 'error' ? 'red' : 'yellow', '^'.repeat(width))}`);
      }
    }
    if (d.detail) {
      lines.push('');
      lines.push(d.detail);
    }
    blocks.push(lines.join('\n'));
  }
  return blocks.length === 0 ? '' : blocks.join('\n\n') + '\n';
}

/** `{ valid, errorCount, warningCount, diagnostics }`: the same data as the text view, for machines. */
/** Version of the diagnostics document (schemas/diagnostics.json); a change that breaks readers raises it. */
export const DIAGNOSTICS_FORMAT_VERSION = '1.0';

/** A diagnostic as the JSON document carries it: a failure adds its hint and whose fault it is. */
export type JsonDiagnostic = Diagnostic & { hint?: string; source?: 'user' | 'remote' | 'internal' };

/**
 * The diagnostics document (schemas/diagnostics.json): what `validate --json` prints, and what any other
 * `--json` command prints on stdout instead of its result when it fails. Shaped like Terraform's
 * `validate -json` output (camelCase, as converge's other documents are).
 */
export function renderDiagnosticsJson(diags: readonly JsonDiagnostic[]): string {
  const errorCount = diags.filter((d) => d.severity === 'error').length;
  return JSON.stringify(
    { formatVersion: DIAGNOSTICS_FORMAT_VERSION, valid: errorCount === 0, errorCount, warningCount: diags.length - errorCount, diagnostics: diags },
    null,
    2,
  );
}

// GitHub workflow commands (actions/toolkit core/src/command.ts): escapeData and escapeProperty.
const escapeData = (s: string): string => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProperty = (s: string): string => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/** One `::error …::` / `::warning …::` line per diagnostic, so GitHub annotates the files in a pull request. */
export function renderGithubAnnotations(diags: Diagnostic[]): string {
  let out = '';
  for (const d of diags) {
    const props: string[] = [];
    if (d.range) {
      props.push(`file=${escapeProperty(d.range.file)}`);
      props.push(`line=${d.range.start.line}`, `col=${d.range.start.col}`);
      props.push(`endLine=${d.range.end.line}`, `endColumn=${d.range.end.col}`);
    }
    props.push(`title=${escapeProperty(d.code)}`);
    const message = d.detail ? `${d.summary} — ${d.detail}` : d.summary;
    out += `::${d.severity} ${props.join(',')}::${escapeData(message)}\n`;
  }
  return out;
}
