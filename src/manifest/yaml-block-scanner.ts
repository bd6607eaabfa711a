import type { ShapeTable } from './position-shapes.js';
import { EntryList } from './position-shapes.js';
import { bail, isNotCommon, plainValue } from './yaml-core-scalar.js';
import type { FastDoc } from './yaml-cst-values.js';
import { entryOf, escapePointer, MAX_DEPTH, pack } from './yaml-entries.js';
import { BACKSLASH, COLON, COMMA, DASH, DQ, HASH, isFlowIndicator, LBRACE, LBRACKET, NL, plainStartsAt, RBRACE, RBRACKET, SPACE, SQ, UNUSUAL_CHARACTER } from './yaml-scan-characters.js';

/*
 * The fastest way the loader reads YAML: one pass over the text, for the plainest files, building values
 * and position entries with no tokens at all. yaml's own Lexer and Parser (a string per lexeme, an object
 * per token), which the CST reader (yaml-cst-values.ts) still runs, were half the CPU time of validating
 * 50 000 documents and much of the garbage. Without this scanner `converge validate` of 50 000 documents
 * misses its goal of 5 s (measured: docs/decisions.md §40; rerun with `node bench/yaml-readers.mjs`).
 *
 * It reads only: block maps and sequences (a sequence may sit at its key's indentation, a map may start on
 * a `- ` line), one-line plain, single- and double-quoted scalars, literal block scalars (`|`, `|-`),
 * one-line flow maps and sequences, empty values, blank lines, comment lines between items (see
 * commentBefore) and after a one-line value (see commentAfter), documents separated by `---` lines.
 * Anything else (comment lines at the end of a collection, folded and other block scalars, multi-line plain and quoted scalars, trailing spaces,
 * anchors, tags, aliases, explicit keys, directives, `...`, escapes other than \\ and \", control
 * characters, non-string keys) makes it give up on the whole file, which is
 * then read by the CST reader or yaml's Documents as before.
 *
 * Its values and entries are those of the CST reader (and so of the Document path): each range starts
 * where yaml's node starts, ends where its value ends (yaml's ranges may also take the whitespace after
 * a value, which a SourceRange drops), empty values and the items of a sequence follow the CST reader's
 * `empty`. test/manifest/yaml-cst-values-equal-document-path.test.ts checks every file it accepts
 * against the Document path.
 */

class BlockScanner {
  private positions = new EntryList();
  private keyRanges = new EntryList();
  private rawQuoted: Record<string, string> = {};
  private numberSource: Record<string, string> = {};
  /** Start of the line peek() looks at next. */
  private pos = 0;
  /** Set by peek(): where the line's content starts. */
  private content = 0;
  /** Where the value read last ends. */
  private end = 0;
  /** The start of the last line peek() found comment lines before. */
  private commented = -1;

  constructor(
    private readonly text: string,
    private readonly table: ShapeTable,
  ) {}

  private lineEnd(from: number): number {
    const i = this.text.indexOf('\n', from);
    return i < 0 ? this.text.length : i;
  }

  /**
   * Skips blank lines to the next line with content and returns its indentation, or -1 at a `---` line
   * or the end of the text. Comments, lines of spaces and other document markers are not read here.
   */
  private peek(): number {
    const t = this.text;
    let p = this.pos;
    let commentIndent = -1;
    for (;;) {
      if (p >= t.length) {
        if (commentIndent >= 0) bail();
        this.pos = p;
        return -1;
      }
      let c = p;
      while (t.charCodeAt(c) === SPACE) c++;
      const ch = t.charCodeAt(c);
      if (c === p && ch === NL) {
        p++;
        continue;
      }
      if (ch === HASH) {
        // Comment lines, all at the indentation of the line they precede (checked below).
        if (commentIndent >= 0 && commentIndent !== c - p) bail();
        commentIndent = c - p;
        p = this.lineEnd(c) + 1;
        continue;
      }
      if (ch === NL || Number.isNaN(ch)) bail();
      this.pos = p;
      this.content = c;
      if (c === p && (t.startsWith('---', p) || t.startsWith('...', p))) {
        if (t.charCodeAt(p) === DASH && (p + 3 === t.length || t.charCodeAt(p + 3) === NL) && commentIndent < 0) return -1;
        bail();
      }
      if (commentIndent >= 0) {
        if (commentIndent !== c - p) bail();
        this.commented = p;
      }
      return c - p;
    }
  }

  /**
   * Whether comment lines precede the line peek() looked at. They are read only before a sibling of the
   * item above (same collection, same indentation), before the first item of a block value, or at the top
   * of a document: there yaml keeps them in the next item's tokens, out of every range. Before the end of a
   * collection they may become part of its range (yaml's parser decides by indentation), so those are
   * left to yaml.
   */
  private commentBefore(): boolean {
    return this.commented === this.pos;
  }

  private isSeqItem(i: number): boolean {
    if (this.text.charCodeAt(i) !== DASH) return false;
    const n = this.text.charCodeAt(i + 1);
    return n === SPACE || n === NL || Number.isNaN(n);
  }

  /** The documents of the text; throws NOT_COMMON (via bail) on anything it does not read. */
  documents(): FastDoc[] {
    const docs: FastDoc[] = [];
    for (;;) {
      const indent = this.peek();
      if (this.pos >= this.text.length) return docs;
      if (indent === -1) {
        this.pos = this.lineEnd(this.pos) + 1; // a `---` line; no content between two of them is an empty document
        continue;
      }
      if (indent !== 0) bail();
      this.positions = new EntryList();
      this.keyRanges = new EntryList();
      this.rawQuoted = {};
      this.numberSource = {};
      const start = this.content;
      const value = this.block(0, '', 0);
      if (this.peek() !== -1) bail();
      docs.push({ value, positions: this.positions, keyRanges: this.keyRanges, rawQuoted: this.rawQuoted, numberSource: this.numberSource, start, end: this.end });
    }
  }

  /** A block node whose first line peek() just looked at (indentation `indent`). */
  private block(indent: number, pointer: string, depth: number): unknown {
    return this.isSeqItem(this.content) ? this.seq(indent, pointer, depth) : this.map(this.content, indent, pointer, depth);
  }

  /**
   * Where a block map key starting at `i` ends (its `:`, followed by a space or the line end), or -1 when
   * no key starts there.
   */
  private keyEnd(i: number, lineEnd: number): number {
    const t = this.text;
    const c = t.charCodeAt(i);
    let j: number;
    if (c === DQ || c === SQ) {
      j = this.quotedEnd(i, lineEnd);
    } else {
      if (!plainStartsAt(t, i, false)) return -1;
      j = i + 1;
      while (j < lineEnd && !(t.charCodeAt(j) === COLON && (j + 1 === lineEnd || t.charCodeAt(j + 1) === SPACE))) j++;
      if (j >= lineEnd) return -1;
      // A comment before the colon, or a space before it (yaml's key would end earlier): left to yaml.
      if (this.hasPair(i, j, SPACE, HASH) || t.charCodeAt(j - 1) === SPACE) bail();
    }
    if (t.charCodeAt(j) !== COLON) return -1;
    const n = t.charCodeAt(j + 1);
    return j + 1 === lineEnd || n === SPACE ? j : -1;
  }

  /** Whether characters `a` then `b` stand side by side in [from, to) (bounded: indexOf would search the rest of the file). */
  private hasPair(from: number, to: number, a: number, b: number): boolean {
    const t = this.text;
    for (let k = from + 1; k < to; k++) if (t.charCodeAt(k) === b && t.charCodeAt(k - 1) === a) return true;
    return false;
  }

  private keyName(start: number, end: number): string {
    const c = this.text.charCodeAt(start);
    const name = c === DQ || c === SQ ? this.quotedValue(start, end) : plainValue(this.text.slice(start, end));
    // Keys the core schema reads as numbers, booleans or null, the merge key and `__proto__` are left to yaml.
    if (typeof name !== 'string' || name === '<<' || name === '__proto__' || end - start > 1000) return bail();
    return name;
  }

  private map(keyPos: number, indent: number, pointer: string, depth: number): Record<string, unknown> {
    if (depth > MAX_DEPTH) bail();
    // Every pointer is new to the document (keys are unique, items numbered): appended, no lookup.
    const slot = this.positions.append(pointer, 0);
    const result: Record<string, unknown> = {};
    let p = keyPos;
    let end: number;
    for (;;) {
      const le = this.lineEnd(p);
      const colon = this.keyEnd(p, le);
      if (colon < 0) bail();
      const name = this.keyName(p, colon);
      if (Object.hasOwn(result, name)) bail();
      const child = this.table.child(pointer, escapePointer(name));
      const keySpan = pack(p, colon);
      this.keyRanges.append(child, entryOf(keySpan));
      if (colon + 1 === le) {
        this.pos = le + 1;
        const next = this.peek();
        if (next > indent || (next === indent && this.isSeqItem(this.content))) {
          result[name] = this.block(next, child, depth + 1);
          end = this.end;
        } else {
          // An empty value: yaml's null of no width after the colon, whose entry is its key's span.
          if (this.commentBefore()) bail();
          this.positions.append(child, entryOf(keySpan, 'PLAIN'));
          result[name] = null;
          end = colon + 1;
        }
      } else {
        let v = colon + 2;
        while (this.text.charCodeAt(v) === SPACE) v++;
        result[name] = this.inline(v, le, indent, child, depth + 1);
        end = this.end;
      }
      const next = this.peek();
      if (next > indent) bail();
      if (next < indent) {
        if (this.commentBefore()) bail();
        break;
      }
      p = this.content;
    }
    this.positions.setAt(slot, entryOf(pack(keyPos, end)));
    this.end = end;
    return result;
  }

  private seq(indent: number, pointer: string, depth: number): unknown[] {
    if (depth > MAX_DEPTH) bail();
    const slot = this.positions.append(pointer, 0);
    const result: unknown[] = [];
    const start = this.content;
    // Empty items take the sequence's span, known only at the end (the CST reader's `pending`).
    let pending: number[] | undefined;
    let end: number;
    for (;;) {
      const dash = this.content;
      const le = this.lineEnd(dash);
      const child = this.table.child(pointer, String(result.length));
      if (dash + 1 === le) {
        this.pos = le + 1;
        const next = this.peek();
        if (next > indent) {
          result.push(this.block(next, child, depth + 1));
          end = this.end;
        } else {
          if (this.commentBefore()) bail();
          (pending ??= []).push(this.positions.append(child, entryOf(-1, 'PLAIN')));
          result.push(null);
          end = dash + 1;
        }
      } else {
        let v = dash + 2;
        while (this.text.charCodeAt(v) === SPACE) v++;
        if (v === le || this.isSeqItem(v)) bail();
        if (this.keyEnd(v, le) >= 0) {
          // `- key: value`: a map whose keys line up under this first one.
          result.push(this.map(v, v - (dash - indent), child, depth + 1));
          end = this.end;
        } else {
          result.push(this.inline(v, le, indent, child, depth + 1));
          end = this.end;
        }
      }
      const next = this.peek();
      if (next === indent && this.isSeqItem(this.content)) continue;
      if (next > indent || this.commentBefore()) bail();
      break;
    }
    const here = pack(start, end);
    this.positions.setAt(slot, entryOf(here));
    if (pending) for (const p of pending) this.positions.setAt(p, entryOf(here, 'PLAIN'));
    this.end = end;
    return result;
  }

  /**
   * A value on the rest of a line (`key: value`, `- value`) of a collection at `indent`: it must end
   * exactly at the line's end, or be a literal block scalar. Leaves `pos` at the line after it.
   */
  private inline(v: number, lineEnd: number, indent: number, pointer: string, depth: number): unknown {
    const t = this.text;
    const c = t.charCodeAt(v);
    let value: unknown;
    if (c === 0x7c) return this.literal(v, lineEnd, indent, pointer, depth); // |
    this.pos = lineEnd + 1;
    if (c === DQ || c === SQ || c === LBRACKET || c === LBRACE) {
      value = this.flowValue(v, lineEnd, pointer, depth);
      this.commentAfter(this.end, lineEnd);
      return value;
    }
    let valueEnd = lineEnd;
    for (let k = v + 1; k < lineEnd; k++) {
      if (t.charCodeAt(k) === HASH && t.charCodeAt(k - 1) === SPACE) {
        valueEnd = k;
        break;
      }
    }
    while (t.charCodeAt(valueEnd - 1) === SPACE) valueEnd--;
    // `: ` would make it a key, a colon at its end too: left to yaml.
    if (depth > MAX_DEPTH || !plainStartsAt(t, v, false) || t.charCodeAt(valueEnd - 1) === COLON || this.hasPair(v, valueEnd, COLON, SPACE)) bail();
    value = this.plain(v, valueEnd, pointer);
    this.commentAfter(valueEnd, lineEnd);
    return value;
  }

  /**
   * After a value ending at `at`: nothing up to the line's end, or spaces and a comment. yaml's node then
   * ends with the comment (its value does not), and so does the range of a collection whose last value it
   * is: `end` moves there. Trailing spaces without a comment are left to yaml.
   */
  private commentAfter(at: number, lineEnd: number): void {
    if (at === lineEnd) return;
    const k = this.skipSpaces(at);
    if (k === at || k >= lineEnd || this.text.charCodeAt(k) !== HASH) bail();
    this.end = lineEnd;
  }

  /**
   * A literal block scalar, `|` (clip: one final newline) or `|-` (strip: none), of a collection at
   * `indent` (yaml's resolve-block-scalar.js): its lines start at the indentation of the first one, which
   * must be deeper than the collection's, and end before the first line indented less. Leading or
   * whitespace-only lines, an explicit indentation, `|+`, folded (`>`) scalars, a comment on the header,
   * and a last line without its newline are left to yaml.
   */
  private literal(header: number, lineEnd: number, indent: number, pointer: string, depth: number): string {
    const t = this.text;
    if (depth > MAX_DEPTH) bail();
    const strip = t.charCodeAt(header + 1) === DASH;
    if (header + (strip ? 2 : 1) !== lineEnd) bail();
    const first = lineEnd + 1;
    let m = first;
    while (t.charCodeAt(m) === SPACE) m++;
    const contentIndent = m - first;
    if (contentIndent <= indent || t.charCodeAt(m) === NL || m >= t.length) bail();
    const lines: string[] = [];
    let blank = 0;
    let end = m;
    let p = first;
    for (;;) {
      if (p >= t.length) break;
      let c = p;
      while (c - p < contentIndent && t.charCodeAt(c) === SPACE) c++;
      if (c === p && t.charCodeAt(p) === NL) {
        blank++;
        p++;
        continue;
      }
      if (c - p < contentIndent) {
        if (t.charCodeAt(c) === NL) bail(); // a line of spaces only
        break;
      }
      const le = this.lineEnd(c);
      if (le >= t.length) bail(); // the last line without its newline
      let k = c;
      while (k < le && t.charCodeAt(k) === SPACE) k++;
      if (k === le) bail(); // a line of spaces only: content or not, by rules left to yaml
      for (; blank > 0; blank--) lines.push('');
      lines.push(t.slice(c, le));
      end = le;
      p = le + 1;
    }
    this.pos = p - blank; // blank lines after the scalar belong to what follows
    this.positions.append(pointer, entryOf(pack(header, end), 'BLOCK_LITERAL'));
    this.end = end;
    const body = lines.join('\n');
    return strip ? body : `${body}\n`;
  }

  private plain(start: number, end: number, pointer: string): unknown {
    const source = this.text.slice(start, end);
    const value = plainValue(source);
    this.positions.append(pointer, entryOf(pack(start, end), 'PLAIN'));
    if (typeof value === 'number' && source !== String(value)) this.numberSource[pointer] = source;
    this.end = end;
    return value;
  }

  /** Where the quoted scalar starting at `i` ends (after its closing quote); it must close on its line. */
  private quotedEnd(i: number, lineEnd: number): number {
    const t = this.text;
    if (t.charCodeAt(i) === SQ) {
      let j = i + 1;
      for (;;) {
        j = t.indexOf("'", j);
        if (j < 0 || j >= lineEnd) return bail();
        if (t.charCodeAt(j + 1) !== SQ) return j + 1;
        j += 2;
      }
    }
    for (let j = i + 1; j < lineEnd; j++) {
      const c = t.charCodeAt(j);
      if (c === DQ) return j + 1;
      if (c === BACKSLASH) {
        const n = t.charCodeAt(j + 1);
        if (n !== BACKSLASH && n !== DQ) bail();
        j++;
      }
    }
    return bail();
  }

  /** The value of a quoted scalar that quotedEnd measured. */
  private quotedValue(start: number, end: number): string {
    const inner = this.text.slice(start + 1, end - 1);
    if (this.text.charCodeAt(start) === SQ) return inner.includes("''") ? inner.replaceAll("''", "'") : inner;
    return inner.includes('\\') ? inner.replace(/\\(["\\])/g, '$1') : inner;
  }

  /** A value inside a flow collection, or a quoted or flow value of a block node. */
  private flowValue(v: number, lineEnd: number, pointer: string, depth: number): unknown {
    if (depth > MAX_DEPTH) bail();
    const t = this.text;
    const c = t.charCodeAt(v);
    if (c === DQ || c === SQ) {
      const end = this.quotedEnd(v, lineEnd);
      this.positions.append(pointer, entryOf(pack(v, end), c === DQ ? 'QUOTE_DOUBLE' : 'QUOTE_SINGLE'));
      this.rawQuoted[pointer] = t.slice(v, end);
      this.end = end;
      return this.quotedValue(v, end);
    }
    if (c === LBRACKET || c === LBRACE) return this.flow(v, lineEnd, pointer, depth);
    if (!plainStartsAt(t, v, true)) bail();
    let j = v;
    for (; j < lineEnd; j++) {
      const ch = t.charCodeAt(j);
      if (isFlowIndicator(ch)) break;
      if (ch === COLON) {
        const n = t.charCodeAt(j + 1);
        if (j + 1 === lineEnd || n === SPACE || isFlowIndicator(n)) bail(); // a pair inside a sequence, or a key: left to yaml
      } else if (ch === HASH && t.charCodeAt(j - 1) === SPACE) bail();
    }
    let end = j;
    while (t.charCodeAt(end - 1) === SPACE) end--;
    return this.plain(v, end, pointer);
  }

  private skipSpaces(i: number): number {
    while (this.text.charCodeAt(i) === SPACE) i++;
    return i;
  }

  /** A one-line flow map or sequence without empty or trailing items (resolve-flow-collection.js). */
  private flow(open: number, lineEnd: number, pointer: string, depth: number): unknown {
    const t = this.text;
    const slot = this.positions.append(pointer, 0);
    const isMap = t.charCodeAt(open) === LBRACE;
    const close = isMap ? RBRACE : RBRACKET;
    const map: Record<string, unknown> = {};
    const list: unknown[] = [];
    let i = this.skipSpaces(open + 1);
    if (t.charCodeAt(i) !== close) {
      for (;;) {
        if (isMap) {
          const keyEnd = this.flowKeyEnd(i, lineEnd);
          const name = this.keyName(i, keyEnd);
          if (Object.hasOwn(map, name)) bail();
          const child = this.table.child(pointer, escapePointer(name));
          this.keyRanges.append(child, entryOf(pack(i, keyEnd)));
          map[name] = this.flowValue(this.skipSpaces(keyEnd + 2), lineEnd, child, depth + 1);
        } else {
          list.push(this.flowValue(i, lineEnd, this.table.child(pointer, String(list.length)), depth + 1));
        }
        i = this.skipSpaces(this.end);
        const ch = t.charCodeAt(i);
        if (ch === close) break;
        if (ch !== COMMA) bail();
        i = this.skipSpaces(i + 1);
        if (t.charCodeAt(i) === close || t.charCodeAt(i) === COMMA) bail();
      }
    }
    if (i >= lineEnd) bail();
    const end = i + 1;
    this.positions.setAt(slot, entryOf(pack(open, end)));
    this.end = end;
    return isMap ? map : list;
  }

  /** Where a flow map key starting at `i` ends: right before its `: ` (no space before the colon). */
  private flowKeyEnd(i: number, lineEnd: number): number {
    const t = this.text;
    const c = t.charCodeAt(i);
    let j: number;
    if (c === DQ || c === SQ) j = this.quotedEnd(i, lineEnd);
    else {
      if (!plainStartsAt(t, i, true)) bail();
      j = i;
      while (j < lineEnd && t.charCodeAt(j) !== COLON && !isFlowIndicator(t.charCodeAt(j)) && t.charCodeAt(j) !== HASH) j++;
    }
    if (j >= lineEnd || t.charCodeAt(j) !== COLON || t.charCodeAt(j + 1) !== SPACE || t.charCodeAt(j - 1) === SPACE) bail();
    return j;
  }
}

/**
 * The documents of one file read straight from its text, or undefined when the file is not among the
 * plainest (then the caller reads it with the CST reader or yaml's Documents).
 */
export function scanCommonYaml(text: string, table: ShapeTable): FastDoc[] | undefined {
  if (UNUSUAL_CHARACTER.test(text)) return undefined;
  try {
    return new BlockScanner(text, table).documents();
  } catch (e) {
    if (isNotCommon(e)) return undefined;
    throw e;
  }
}
