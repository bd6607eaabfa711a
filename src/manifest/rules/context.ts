import type { Diagnostic, Severity, SourceRange } from '../../diagnostics/types.js';
import type { DocumentKind } from '../schema.js';
import { rangeAt } from '../schema-errors.js';
import type { YamlTree } from '../yaml-tree.js';
import type { RuleSink } from '../../kinds/rule-sink.js';
import type { GeneratedOrigin } from '../../model/desired.js';
import { markGenerated } from '../generated-diagnostics.js';

export { where } from '../../kinds/rule-sink.js';

/** One document after the envelope check (it is a mapping with a known kind). */
export interface LoadedDoc {
  kind: DocumentKind;
  /** '' when missing or not a string (the schema reports that). */
  name: string;
  file: string;
  baseDir: string;
  tree: YamlTree;
  value: Record<string, unknown>;
  /** Length of a line of the document's file (for ranges that run to the end of a line). */
  lineLength: (line: number) => number;
  /** The document passed its kind's schema, so its spec has the TypeScript shape. */
  schemaValid: boolean;
  /** JSON pointers of the schema's findings in this document (empty when it passed). */
  schemaProblems: string[];
  /** Set on a document a NoCodeWorkspaceSet generated: its findings name the set and the item. */
  origin?: GeneratedOrigin;
}

/** Collects diagnostics for one document, placing each at a JSON pointer's node. */
export class DocDiagnostics implements RuleSink {
  constructor(
    readonly doc: LoadedDoc,
    private readonly out: Diagnostic[],
    /** Which findings at a JSON pointer to keep (all by default). */
    private readonly keep: (pointer: string) => boolean = () => true,
  ) {}

  range(pointer: string): SourceRange {
    return rangeAt(this.doc.tree, pointer);
  }

  /** Which pointer each range handed out by keyRange() stands for, so `keep` applies to it too. */
  private readonly rangePointers = new WeakMap<SourceRange, string>();

  keyRange(pointer: string): SourceRange {
    const r = { ...(this.doc.tree.keyRanges[pointer] ?? this.range(pointer)) };
    this.rangePointers.set(r, pointer);
    return r;
  }

  add(severity: Severity, code: string, pointer: string | SourceRange, summary: string, detail?: string): void {
    const at = typeof pointer === 'string' ? pointer : this.rangePointers.get(pointer);
    if (at !== undefined && !this.keep(at)) return;
    const range = typeof pointer === 'string' ? this.range(pointer) : pointer;
    const found: Diagnostic = detail === undefined ? { severity, code, summary, range } : { severity, code, summary, detail, range };
    if (this.doc.origin) markGenerated(found, this.doc.name, this.doc.origin);
    this.out.push(found);
  }

  error(code: string, pointer: string | SourceRange, summary: string, detail?: string): void {
    this.add('error', code, pointer, summary, detail);
  }

  warning(code: string, pointer: string | SourceRange, summary: string, detail?: string): void {
    this.add('warning', code, pointer, summary, detail);
  }
}
