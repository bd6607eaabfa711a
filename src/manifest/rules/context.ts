import type { Diagnostic, Severity, SourceRange } from '../../diagnostics/types.js';
import type { DocumentKind } from '../schema.js';
import { rangeAt } from '../schema-errors.js';
import type { YamlTree } from '../yaml-tree.js';

/** One document after the envelope check (it is a mapping with a known kind). */
export interface LoadedDoc {
  kind: DocumentKind;
  /** '' when missing or not a string (the schema reports that). */
  name: string;
  file: string;
  baseDir: string;
  tree: YamlTree;
  value: Record<string, unknown>;
  /** The document passed its kind's schema, so its spec has the TypeScript shape. */
  schemaValid: boolean;
}

export function where(r: SourceRange): string {
  return `${r.file}:${r.start.line}`;
}

/** Collects diagnostics for one document, placing each at a JSON pointer's node. */
export class DocDiagnostics {
  constructor(
    readonly doc: LoadedDoc,
    private readonly out: Diagnostic[],
  ) {}

  range(pointer: string): SourceRange {
    return rangeAt(this.doc.tree, pointer);
  }

  keyRange(pointer: string): SourceRange {
    return this.doc.tree.keyRanges[pointer] ?? this.range(pointer);
  }

  add(severity: Severity, code: string, pointer: string | SourceRange, summary: string, detail?: string): void {
    const range = typeof pointer === 'string' ? this.range(pointer) : pointer;
    this.out.push(detail === undefined ? { severity, code, summary, range } : { severity, code, summary, detail, range });
  }

  error(code: string, pointer: string | SourceRange, summary: string, detail?: string): void {
    this.add('error', code, pointer, summary, detail);
  }

  warning(code: string, pointer: string | SourceRange, summary: string, detail?: string): void {
    this.add('warning', code, pointer, summary, detail);
  }
}
