import { isAlias, isMap, isScalar, isSeq } from 'yaml';
import type { Alias, Document, LineCounter, Node as YamlNode, YAMLMap } from 'yaml';
import type { Diagnostic, SourceRange } from '../diagnostics/types.js';
import { EntryList, ShapeTable } from './position-shapes.js';
import { scanCommonYaml } from './yaml-block-scanner.js';
import { readCommonYaml } from './yaml-cst-values.js';
import type { FastDoc } from './yaml-cst-values.js';
import type { FrozenEntries, Shape } from './position-shapes.js';
import { yamlParser } from './yaml-build.js';
import { documentPieceStarts } from './yaml-document-chunks.js';
import { entryOf, escapePointer, MAX_DEPTH, pack, SPAN, STYLE_SLOTS, STYLES, spanOf } from './yaml-entries.js';

export { escapePointer, MAX_DEPTH };

/** Aliases expanded per document before we call it an alias bomb (yaml's own default is 100). */
export const MAX_ALIAS_EXPANSIONS = 100;

/** One YAML document: its plain value plus where every node came from. */
export interface YamlTree {
  value: unknown;
  /** JSON pointer → range of the value node (a key's range when the value is empty). */
  positions: Record<string, SourceRange>;
  /** JSON pointer of a mapping entry → range of its key (for "unknown field"). */
  keyRanges: Record<string, SourceRange>;
  /** JSON pointer → the scalar's source style, to place columns inside strings. */
  scalarStyle: Record<string, string>;
  /** JSON pointer → raw source of quoted scalars (escapes shift columns). */
  rawQuoted: Record<string, string>;
  /**
   * JSON pointer → source text of a plain number whose value prints differently (`1.10` → 1.1,
   * `0128` → 128, `1e3` → 1000): where a number is really text, such as a variable value, the text as
   * written is what the user meant. Only those differing are kept.
   */
  numberSource: Record<string, string>;
  range: SourceRange;
}

export interface ParsedFile {
  docs: YamlTree[];
  diagnostics: Diagnostic[];
}


/** What a lazy view reads from: the entries of one document (slots of a shared shape) and how to turn a span into a range. */
interface EntrySource {
  shape: Shape;
  entries: readonly number[];
  ranges: RangeMaker;
}

/** One read-only handler per kind of view, shared by every document (closures per view would cost more than the entries). */
function readOnlyView<T>(read: (src: EntrySource, entry: number) => T | undefined): ProxyHandler<EntrySource> {
  const at = (src: EntrySource, p: string | symbol): T | undefined => {
    const slot = typeof p === 'string' ? src.shape.get(p) : undefined;
    const entry = slot === undefined ? undefined : src.entries[slot];
    return entry === undefined ? undefined : read(src, entry);
  };
  return {
    get: at,
    has: (src, p) => at(src, p) !== undefined,
    ownKeys: (src) => [...src.shape.keys()].filter((k) => at(src, k) !== undefined),
    getOwnPropertyDescriptor: (src, p) => {
      const value = at(src, p);
      return value === undefined ? undefined : { value, enumerable: true, configurable: true, writable: false };
    },
    set: () => false,
    deleteProperty: () => false,
    defineProperty: () => false,
  };
}

const RANGE_VIEW = readOnlyView((src, entry) => src.ranges.ofSpan(spanOf(entry)));
const STYLE_VIEW = readOnlyView((_src, entry) => STYLES[(entry % STYLE_SLOTS) - 1]);

/** A read-only `pointer → T` view of a document's entries, each value made when it is read. */
function lazyView<T>(handler: ProxyHandler<EntrySource>, frozen: FrozenEntries, ranges: RangeMaker): Record<string, T> {
  return new Proxy({ shape: frozen.shape, entries: frozen.entries, ranges }, handler) as unknown as Record<string, T>;
}

class RangeMaker {
  constructor(
    private readonly file: string,
    private readonly lc: LineCounter,
    private readonly text: string,
    /** Where the piece the offsets count from starts in `text` (a file read a document at a time). */
    private readonly base = 0,
  ) {}

  of(start: number, end: number): SourceRange {
    start += this.base;
    end += this.base;
    // Block collections end after their last newline; stop the range at the last character instead.
    while (end > start + 1 && /\s/.test(this.text[end - 1] ?? '')) end--;
    const s = this.lc.linePos(start);
    const e = this.lc.linePos(Math.max(start, end));
    return { file: this.file, start: { line: s.line, col: s.col }, end: { line: e.line, col: e.col } };
  }

  ofSpan(span: number): SourceRange {
    return this.of(Math.floor(span / SPAN), span % SPAN);
  }
}

/** One entry of a mapping after merge keys: its key, the span of the key, its value node. */
interface MapEntry {
  key: string;
  keySpan: number;
  valueNode: YamlNode | null;
  /** The alias span the entry came through, if any (its positions then all point there). */
  underAlias: number | undefined;
}

/** Where `&name` anchors a node before `end`, if anywhere (a whole name: not `&names`). */
function anchorBefore(text: string, name: string, end: number): number | undefined {
  for (let at = text.lastIndexOf(`&${name}`, end - 1); at >= 0; at = text.lastIndexOf(`&${name}`, at - 1)) {
    const after = text[at + name.length + 1];
    if (after === undefined || /[\s,\]}]/.test(after)) return at;
  }
  return undefined;
}

class Converter {
  aliases = 0;
  /** JSON pointer → entry (span and scalar style) of the value node (see `positions` of YamlTree). */
  readonly positions = new EntryList();
  /** JSON pointer of a mapping entry → entry of its key. */
  readonly keyRanges = new EntryList();
  readonly rawQuoted: Record<string, string> = {};
  readonly numberSource: Record<string, string> = {};
  readonly diagnostics: Diagnostic[] = [];
  private stopped = false;

  /** Ranges need only the file's text and line starts: what a desired object keeps (not the parsed document). */
  readonly ranges: RangeMaker;

  constructor(
    private readonly doc: Document,
    ranges: RangeMaker,
    private readonly text: string,
    private readonly table: ShapeTable,
    /** Where this document starts in `text` (for the anchors of earlier documents). */
    private readonly docStart = 0,
  ) {
    this.ranges = ranges;
  }
  rangeOf = (start: number, end: number): SourceRange => this.ranges.of(start, end);

  nodeSpan(node: YamlNode | null | undefined, fallback: number): number {
    const r = node?.range;
    if (!r) return fallback;
    if (r[1] <= r[0]) return fallback;
    return pack(r[0], r[1]);
  }

  private fail(code: string, summary: string, detail: string, span: number): void {
    if (this.stopped) return;
    this.stopped = true;
    this.diagnostics.push({ severity: 'error', code, summary, detail, range: this.ranges.ofSpan(span) });
  }

  /**
   * Converts a node, recording positions. Under an alias, every position is the alias's own range:
   * that is where the user wrote the value in this place.
   */
  convert(node: unknown, pointer: string, depth: number, at: number, underAlias: number | undefined): unknown {
    if (this.stopped) return undefined;
    const here = underAlias ?? this.nodeSpan(node as YamlNode, at);
    this.positions.set(pointer, entryOf(here));
    if (depth > MAX_DEPTH) {
      this.fail(
        'yaml.too-deep',
        `the document is nested more than ${MAX_DEPTH} levels deep`,
        'No manifest needs this much nesting; check the indentation or brackets around this line.',
        here,
      );
      return undefined;
    }
    if (isAlias(node)) {
      const target = this.resolveAlias(node, here);
      return target === undefined ? undefined : this.convert(target, pointer, depth + 1, here, here);
    }
    if (isScalar(node)) {
      if (typeof node.type === 'string') this.positions.set(pointer, entryOf(here, node.type));
      if ((node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE') && node.range && !underAlias) this.rawQuoted[pointer] = this.text.slice(node.range[0], node.range[1]);
      const v = node.value;
      if ((typeof v === 'number' || typeof v === 'bigint') && node.type === 'PLAIN' && typeof node.source === 'string' && node.source !== String(v)) {
        this.numberSource[pointer] = node.source;
      }
      if (typeof v === 'bigint') return Number(v);
      return v;
    }
    if (isMap(node)) {
      const entries = this.mapEntries(node, here, underAlias, depth);
      if (entries === undefined) return undefined;
      const out: Record<string, unknown> = {};
      const seen = new Set<string>();
      for (const { key, keySpan: keyRange, valueNode, underAlias: under } of entries) {
        const child = this.table.child(pointer, escapePointer(key));
        // Checked here with a Set: the parser's own uniqueKeys check compares every key with every
        // earlier one, and a 100 000-key mapping took 300 s. Same message as the parser's.
        if (seen.has(key)) {
          this.fail('yaml.syntax', 'YAML syntax error: Map keys must be unique', yamlHint('DUPLICATE_KEY'), keyRange);
          return undefined;
        }
        seen.add(key);
        this.keyRanges.set(child, entryOf(keyRange));
        // An empty value (`spec:` and nothing) has no width: point at the key instead.
        out[key] = valueNode === null ? null : this.convert(valueNode, child, depth + 1, keyRange, under);
        if (valueNode === null || !this.positions.has(child)) this.positions.set(child, entryOf(keyRange));
        if (this.stopped) return undefined;
      }
      return out;
    }
    if (isSeq(node)) {
      const out: unknown[] = [];
      node.items.forEach((item, i) => {
        out.push(item === null ? null : this.convert(item, this.table.child(pointer, String(i)), depth + 1, here, underAlias));
      });
      return out;
    }
    return node === null || node === undefined ? null : undefined;
  }

  /** The node an alias names, counted against the alias-bomb limit; undefined (and a diagnostic) when there is none. */
  private resolveAlias(node: Alias, here: number): YamlNode | undefined {
    this.aliases++;
    if (this.aliases > MAX_ALIAS_EXPANSIONS) {
      this.fail(
        'yaml.alias-limit',
        `too many alias expansions (more than ${MAX_ALIAS_EXPANSIONS} in one document)`,
        'This looks like an alias bomb (YAML "billion laughs"); write the values out instead of nesting aliases.',
        here,
      );
      return undefined;
    }
    const target = node.resolve(this.doc) as YamlNode | undefined;
    if (target === undefined) this.fail('yaml.alias', `unresolved alias *${node.source}`, this.unresolvedHint(node.source), here);
    return target;
  }

  /** Anchors belong to one document: say so when the name was anchored in an earlier document of the file. */
  private unresolvedHint(name: string): string {
    const earlier = anchorBefore(this.text, name, this.docStart);
    if (earlier === undefined) return `Define the anchor (&${name}) earlier in the same document, before using it.`;
    const line = this.ranges.of(earlier, earlier).start.line;
    return `&${name} is defined on line ${line}, in an earlier document: anchors do not cross \`---\` document boundaries. Define the anchor again in this document, or write the value out.`;
  }

  /**
   * A mapping's entries, with YAML merge keys (`<<: *defaults`, `<<: [*a, *b]`, as in docker-compose and
   * GitLab CI; https://yaml.org/type/merge.html) expanded: an entry written in the mapping beats a merged
   * one, an earlier merged mapping beats a later one. A merged entry's positions are the alias's own
   * range (where the value is used), as for any alias.
   */
  private mapEntries(node: YAMLMap, here: number, underAlias: number | undefined, depth: number): MapEntry[] | undefined {
    const own: MapEntry[] = [];
    const merged: MapEntry[] = [];
    for (const pair of node.items) {
      const keyNode = pair.key as YamlNode | null;
      if (keyNode !== null && !isScalar(keyNode)) {
        this.fail('yaml.complex-key', 'a mapping key must be a plain string', 'Write keys as plain words, like `name:`.', this.nodeSpan(keyNode, here));
        return undefined;
      }
      const valueNode = pair.value as YamlNode | null;
      const keySpan = underAlias ?? this.nodeSpan(keyNode, here);
      if (keyNode !== null && keyNode.value === '<<' && keyNode.type === 'PLAIN') {
        if (depth > MAX_DEPTH) {
          this.fail('yaml.too-deep', `merge keys nest more than ${MAX_DEPTH} levels deep`, 'Merge each mapping once instead of merging merged mappings.', keySpan);
          return undefined;
        }
        const sources = isSeq(valueNode) ? valueNode.items : [valueNode];
        for (const source of sources) {
          const at = underAlias ?? this.nodeSpan(source as YamlNode | null, keySpan);
          const target = isAlias(source) ? this.resolveAlias(source, at) : (source as YamlNode | null);
          if (this.stopped) return undefined;
          if (!isMap(target)) {
            this.fail('yaml.merge', 'a merge key `<<` takes a mapping, an alias of one, or a list of them', 'Write `<<: *anchor` where `&anchor` names a mapping, or `<<: [*a, *b]`.', at);
            return undefined;
          }
          const inner = this.mapEntries(target, at, isAlias(source) ? at : underAlias, depth + 1);
          if (inner === undefined) return undefined;
          merged.push(...inner);
        }
        continue;
      }
      own.push({ key: keyNode === null ? '' : String(keyNode.value), keySpan, valueNode, underAlias });
    }
    if (merged.length === 0) return own;
    const taken = new Set(own.map((e) => e.key));
    for (const e of merged) {
      if (taken.has(e.key)) continue;
      taken.add(e.key);
      own.push(e);
    }
    return own;
  }

  get isStopped(): boolean {
    return this.stopped;
  }
}

/** The Document path: every file yaml can read, with yaml's own errors and warnings as diagnostics. */
export function parseYamlDocuments(text: string, file: string, table = new ShapeTable()): ParsedFile {
  const lc = new yamlParser.LineCounter();
  const diagnostics: Diagnostic[] = [];
  const docs: YamlTree[] = [];
  let parsed: Document[];
  try {
    parsed = yamlParser.parseAllDocuments(text, { lineCounter: lc, prettyErrors: false, uniqueKeys: false }) as unknown as Document[];
  } catch (e) {
    // The parser itself gave up (e.g. the stack on absurd nesting): report it at the top of the file.
    diagnostics.push({
      severity: 'error',
      code: 'yaml.syntax',
      summary: 'the YAML parser could not read this file',
      detail: `${e instanceof Error ? e.message : String(e)}. Check brackets and indentation.`,
      range: { file, start: { line: 1, col: 1 }, end: { line: 1, col: 1 } },
    });
    return { docs, diagnostics };
  }
  if (!Array.isArray(parsed)) parsed = [parsed];
  const ranges = new RangeMaker(file, lc, text);
  for (const doc of parsed) {
    const conv = new Converter(doc, ranges, text, table, doc.range?.[0] ?? 0);
    let hadError = false;
    for (const err of doc.errors) {
      hadError = true;
      if (/call stack/i.test(err.message)) {
        // yaml recurses per nesting level; a hostile file can exhaust the stack (it reports, not throws).
        diagnostics.push({
          severity: 'error',
          code: 'yaml.too-deep',
          summary: 'the document is nested too deeply to parse',
          detail: `No manifest needs more than ${MAX_DEPTH} levels; check the indentation or brackets around this line.`,
          range: conv.rangeOf(err.pos[0], err.pos[1]),
        });
        continue;
      }
      diagnostics.push({
        severity: 'error',
        code: 'yaml.syntax',
        summary: `YAML syntax error: ${firstLine(err.message)}`,
        detail: yamlHint(err.code),
        range: conv.rangeOf(err.pos[0], err.pos[1]),
      });
    }
    for (const w of doc.warnings) {
      diagnostics.push({
        severity: 'warning',
        code: 'yaml.warning',
        summary: `YAML: ${firstLine(w.message)}`,
        range: conv.rangeOf(w.pos[0], w.pos[1]),
      });
    }
    if (hadError) continue;
    const contents = doc.contents as YamlNode | null;
    // An empty document (a lone `---`, or only comments) is nothing to check.
    if (contents === null || (isScalar(contents) && contents.value === null)) continue;
    const r = contents.range ?? [0, 0, 0];
    const docRange = conv.rangeOf(r[0], r[1]);
    const value = conv.convert(contents, '', 0, pack(r[0], r[1]), undefined);
    diagnostics.push(...conv.diagnostics);
    if (conv.isStopped) continue;
    docs.push(treeOf({ ...conv, value, range: docRange }, ranges, table));
  }
  return { docs, diagnostics };
}

/** The parts both readers leave for one document. */
type DocParts = Omit<FastDoc, 'start' | 'end'> & { range: SourceRange };

function treeOf(parts: DocParts, ranges: RangeMaker, table: ShapeTable): YamlTree {
  const positions = parts.positions.freeze(table);
  return {
    value: parts.value,
    positions: lazyView(RANGE_VIEW, positions, ranges),
    keyRanges: lazyView(RANGE_VIEW, parts.keyRanges.freeze(table), ranges),
    scalarStyle: lazyView(STYLE_VIEW, positions, ranges),
    rawQuoted: parts.rawQuoted,
    numberSource: parts.numberSource,
    range: parts.range,
  };
}

/**
 * Parses every document of one file. Never throws for bad input: problems come back as diagnostics.
 * Files of one load share a ShapeTable, so their documents share pointer strings and shapes. A file is read
 * one document piece at a time (yaml-document-chunks.ts: what a document needs only while it is read dies
 * before the next one). The plainest pieces are read straight from the text (yaml-block-scanner.ts: no
 * tokens), others in the common case from yaml's CST (yaml-cst-values.ts: no Document nodes); if any piece
 * is beyond both, the whole file goes through yaml's Documents, which also give the diagnostics.
 */
export function parseYamlFile(text: string, file: string, table = new ShapeTable()): ParsedFile {
  const lc = lineCounterOf(text);
  const docs: YamlTree[] = [];
  const starts = documentPieceStarts(text);
  for (let i = 0; i < starts.length; i++) {
    const base = starts[i] as number;
    const piece = starts.length === 1 ? text : text.slice(base, starts[i + 1]);
    const fast = scanCommonYaml(piece, table) ?? readCommonYaml(piece, table);
    if (fast === undefined) return parseYamlDocuments(text, file, table);
    const ranges = new RangeMaker(file, lc, text, base);
    for (const d of fast) docs.push(treeOf({ ...d, range: ranges.of(d.start, d.end) }, ranges, table));
  }
  return { docs, diagnostics: [] };
}

/** The trees of documents one of the fast readers gave for a whole text (exported for the test that holds them to the Document path). */
export function treesOfFastDocs(fast: readonly FastDoc[], text: string, file: string, table: ShapeTable): ParsedFile {
  const ranges = new RangeMaker(file, lineCounterOf(text), text);
  return { docs: fast.map((d) => treeOf({ ...d, range: ranges.of(d.start, d.end) }, ranges, table)), diagnostics: [] };
}

/** A LineCounter told every line start of `text`, as yaml's parser tells it. */
function lineCounterOf(text: string): LineCounter {
  const lc = new yamlParser.LineCounter();
  lc.addNewLine(0);
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lc.addNewLine(i + 1);
  return lc;
}

function firstLine(s: string): string {
  const line = s.split('\n')[0] ?? s;
  return line.replace(/ at line \d+, column \d+:?$/, '').trim();
}

function yamlHint(code: string): string {
  switch (code) {
    case 'DUPLICATE_KEY':
      return 'Each key may appear once in a mapping; remove or rename the repeated one.';
    case 'BAD_INDENT':
    case 'MISSING_CHAR':
    case 'UNEXPECTED_TOKEN':
      return 'Check the indentation and punctuation on this line (YAML uses spaces, not tabs, and `key: value`).';
    case 'TAB_AS_INDENT':
      return 'YAML indentation must use spaces, not tabs.';
    default:
      return 'Fix the YAML syntax at this position.';
  }
}
