import type { Severity, SourceRange } from '../diagnostics/types.js';

/**
 * What a kind's rules see of one document: its parsed value and where each node sits. The manifest
 * loader's documents fit it; kinds depend on this shape, never on the loader, so `kinds/` sits below
 * `manifest/` and the two do not import each other.
 */
export interface RuleDoc {
  /** The document's `kind:` (a converge kind or the Settings document). */
  kind: string;
  /** '' when missing or not a string (the schema reports that). */
  name: string;
  file: string;
  value: Record<string, unknown>;
  /** The document passed its kind's schema, so its spec has the TypeScript shape. */
  schemaValid: boolean;
  tree: RuleDocTree;
}

/** Source positions of a document's nodes, keyed by JSON pointer. */
export interface RuleDocTree {
  range: SourceRange;
  /** JSON pointer → range of the value node. */
  positions: Readonly<Record<string, SourceRange>>;
  /** JSON pointer → the scalar's source style (`PLAIN`, `QUOTE_DOUBLE`, …), to place columns inside strings. */
  scalarStyle: Readonly<Record<string, string>>;
  /** JSON pointer → raw source of quoted scalars (escapes shift columns). */
  rawQuoted: Readonly<Record<string, string>>;
}

/** Where a kind's rules put their findings about one document, each placed at a JSON pointer's node. */
export interface RuleSink {
  readonly doc: RuleDoc;
  range(pointer: string): SourceRange;
  /** The range of a mapping entry's key (for "unknown field"-like findings). */
  keyRange(pointer: string): SourceRange;
  add(severity: Severity, code: string, at: string | SourceRange, summary: string, detail?: string): void;
  error(code: string, at: string | SourceRange, summary: string, detail?: string): void;
  warning(code: string, at: string | SourceRange, summary: string, detail?: string): void;
}

/** A sink for any document of the run, for rules that look across documents. */
export type SinkFor<D extends RuleDoc = RuleDoc> = (doc: D) => RuleSink;

/** `file:line` of a range, for messages that point at another document. */
export function where(r: SourceRange): string {
  return `${r.file}:${r.start.line}`;
}
