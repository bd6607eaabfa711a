import type { CST } from 'yaml';
import type { ShapeTable } from './position-shapes.js';
import { EntryList } from './position-shapes.js';
import { yamlParser } from './yaml-build.js';
import { entryOf, escapePointer, MAX_DEPTH, pack } from './yaml-entries.js';
import { bail, isNotCommon, plainValue } from './yaml-core-scalar.js';

/*
 * The fast path of the loader: plain values and position entries built straight from yaml's CST
 * (`Parser` tokens), without the `Document`/`YAMLMap`/`Scalar` nodes its composer makes. Those nodes were
 * most of the time and the garbage of validating 50 000 documents. It reads the common case only: block
 * maps and sequences of plain, quoted and block scalars, comments, several documents per file. Anything
 * else (flow collections, anchors, aliases, tags, explicit keys, directives, tabs, CR, duplicate keys,
 * octal, hexadecimal, infinite and NaN numbers, any token yaml would report as an error or a
 * warning) makes the whole file go back to the Document path, so its diagnostics stay yaml's own.
 *
 * Each range mirrors yaml's composer (node_modules/yaml/dist/compose/resolve-block-map.js,
 * resolve-block-seq.js, compose-node.js `composeEmptyNode`, util-empty-scalar-position.js,
 * resolve-props.js), and scalars are read with yaml's own `CST.resolveAsScalar`; typing follows the core
 * schema's tests (dist/schema/core/*.js). test/manifest/yaml-cst-values-equal-document-path.test.ts
 * checks that every file it accepts gives the Document path's values and entries exactly.
 */

/** One document's values and entries, as the Document path's Converter leaves them. */
export interface FastDoc {
  value: unknown;
  positions: EntryList;
  keyRanges: EntryList;
  rawQuoted: Record<string, string>;
  numberSource: Record<string, string>;
  start: number;
  end: number;
}


/** [start, end of value, end of node and its trailing comments], as yaml's node.range. */
type Range3 = [number, number, number];

type SourceToken = CST.SourceToken;

interface Props {
  found: SourceToken | undefined;
  end: number;
  hasNewline: boolean;
  hasComment: boolean;
}

/**
 * resolve-props.js for a token list holding only spaces, comments, newlines and the one indicator
 * (anything else, which is where yaml reports errors or reads anchors and tags, is not the common case).
 */
function simpleProps(tokens: readonly SourceToken[], indicator: string, offset: number, startOnNewline: boolean): Props {
  let hasSpace = startOnNewline;
  let found: SourceToken | undefined;
  let hasNewline = false;
  let hasComment = false;
  for (const t of tokens) {
    switch (t.type) {
      case 'space':
        hasSpace = true;
        break;
      case 'comment':
        if (!hasSpace) bail();
        hasComment = true;
        break;
      case 'newline':
        hasNewline = true;
        hasSpace = true;
        break;
      default:
        if (t.type !== indicator || found !== undefined) bail();
        found = t;
        hasSpace = false;
    }
  }
  const last = tokens[tokens.length - 1];
  return { found, end: last ? last.offset + last.source.length : offset, hasNewline, hasComment };
}

/** util-empty-scalar-position.js: an empty value sits after the indicator and the spaces that follow it. */
function emptyPosition(offset: number, before: readonly SourceToken[]): number {
  let i = before.length - 1;
  while (i >= 0) {
    const t = before[i] as SourceToken;
    if (t.type !== 'space' && t.type !== 'comment' && t.type !== 'newline') break;
    offset -= t.source.length;
    i--;
  }
  if (i < 0) return offset;
  for (let j = i + 1; before[j]?.type === 'space'; j++) offset += (before[j] as SourceToken).source.length;
  return offset;
}

/** Characters yaml will not start a plain scalar with (resolve-flow-scalar.js `plainValue`). */
const BAD_PLAIN_START = new Set(['\t', ',', '%', '|', '>', '@', '`']);

/**
 * A one-line plain scalar followed by nothing but spaces and newlines, read without yaml's
 * resolveFlowScalar: its value is its source (nothing to unfold), which spares a regular expression and
 * three objects per scalar, most of the scalars of a manifest. Anything else goes to resolveAsScalar.
 */
function onePlainLine(token: CST.FlowScalar): { value: unknown; range: Range3; type: string } | undefined {
  const { source, offset } = token;
  if (source.includes('\n') || BAD_PLAIN_START.has(source[0] ?? '')) return undefined;
  let end = offset + source.length;
  const valueEnd = end;
  for (const t of token.end ?? []) {
    if (t.type !== 'space' && t.type !== 'newline') return undefined;
    end += t.source.length;
  }
  return { value: plainValue(source), range: [offset, valueEnd, end], type: 'PLAIN' };
}

class CstReader {
  readonly positions = new EntryList();
  readonly keyRanges = new EntryList();
  readonly rawQuoted: Record<string, string> = {};
  readonly numberSource: Record<string, string> = {};

  constructor(
    private readonly text: string,
    private readonly table: ShapeTable,
  ) {}

  /** A node's entry span: its range, or `at` when it has no width (yaml Converter's nodeSpan). */
  private static span(r: Range3, at: number): number {
    return r[1] <= r[0] ? at : pack(r[0], r[1]);
  }

  private scalar(token: CST.Token): { value: unknown; range: Range3; type: string } {
    if (token.type === 'scalar') {
      const plain = onePlainLine(token);
      if (plain !== undefined) return plain;
    }
    const res = yamlParser.CST.resolveAsScalar(token as CST.FlowScalar, true, bail);
    if (res === null) return bail();
    const range = res.range as Range3;
    return { value: res.type === 'PLAIN' ? plainValue(res.value) : res.value, range, type: res.type ?? 'PLAIN' };
  }

  /** Reads a node into `out.value`; returns its range. Mirrors the Document path's Converter.convert. */
  node(token: CST.Token, pointer: string, depth: number, at: number, out: { value: unknown }): Range3 {
    if (depth > MAX_DEPTH) bail();
    switch (token.type) {
      case 'scalar':
      case 'single-quoted-scalar':
      case 'double-quoted-scalar':
      case 'block-scalar': {
        const s = this.scalar(token);
        this.positions.set(pointer, entryOf(CstReader.span(s.range, at), s.type));
        if (s.type === 'QUOTE_DOUBLE' || s.type === 'QUOTE_SINGLE') this.rawQuoted[pointer] = this.text.slice(s.range[0], s.range[1]);
        if (typeof s.value === 'number' && s.type === 'PLAIN') {
          const source = (token as CST.FlowScalar).source;
          if (source !== String(s.value)) this.numberSource[pointer] = source;
        }
        out.value = s.value;
        return s.range;
      }
      case 'block-map':
        return this.map(token, pointer, depth, at, out);
      case 'block-seq':
        return this.seq(token, pointer, depth, at, out);
      case 'flow-collection':
        return this.flow(token, pointer, depth, at, out);
      default:
        return bail();
    }
  }

  /** An empty value (`key:` and nothing): yaml makes a null plain scalar of no width there. */
  private empty(pointer: string, pos: number, at: number, props: Props): Range3 {
    // With a comment, yaml stretches the empty node's range over it; rare, left to yaml.
    if (props.hasComment) bail();
    this.positions.set(pointer, entryOf(at, 'PLAIN'));
    return [pos, pos, pos];
  }

  private map(bm: CST.BlockMap, pointer: string, depth: number, at: number, out: { value: unknown }): Range3 {
    // The entry's span is known only at the end; setting it now keeps the Document path's slot order.
    this.positions.set(pointer, 0);
    const result: Record<string, unknown> = {};
    const seen = new Set<string>();
    let offset = bm.offset;
    let commentEnd: number | undefined;
    const slot = { value: undefined as unknown };
    for (const item of bm.items) {
      const { start, key, sep, value } = item;
      const keyProps = simpleProps(start, 'explicit-key-ind', offset, true);
      if (keyProps.found) bail();
      if (!key && !sep) {
        commentEnd = keyProps.end;
        continue;
      }
      if (!key || !sep) return bail();
      if ('indent' in key && key.indent !== bm.indent) bail();
      const k = this.key(key, at);
      const name = k.name;
      if (seen.has(name)) bail();
      seen.add(name);
      const child = this.table.child(pointer, escapePointer(name));
      const keySpan = k.span;
      this.keyRanges.set(child, entryOf(keySpan));
      const valueProps = simpleProps(sep, 'map-value-ind', k.range[2], false);
      if (!valueProps.found) bail();
      if (value?.type === 'block-map' && !valueProps.hasNewline) bail();
      if ((valueProps.found?.offset ?? 0) - keyProps.end > 1000) bail(); // yaml's 1024-character implicit key limit
      let r: Range3;
      if (value) {
        r = this.node(value, child, depth + 1, keySpan, slot);
        result[name] = slot.value;
      } else {
        r = this.empty(child, emptyPosition(valueProps.end, sep), keySpan, valueProps);
        result[name] = null;
      }
      offset = r[2];
    }
    if (commentEnd !== undefined && commentEnd < offset) bail();
    const range: Range3 = [bm.offset, offset, commentEnd ?? offset];
    this.positions.set(pointer, entryOf(CstReader.span(range, at)));
    out.value = result;
    return range;
  }

  /** A key of a block or flow map: a one-line scalar that the core schema reads as a string. */
  private key(key: CST.Token, at: number): { name: string; range: Range3; span: number } {
    if (key.type !== 'scalar' && key.type !== 'single-quoted-scalar' && key.type !== 'double-quoted-scalar') return bail();
    if (key.source.includes('\n') || key.end?.some((t) => t.type !== 'space')) bail();
    const k = this.scalar(key);
    // The merge key (`<<: *defaults`) is expanded by the Document path (yaml-tree.ts), as the block scanner leaves it.
    if (typeof k.value !== 'string' || k.value === '<<') bail();
    return { name: k.value as string, range: k.range, span: CstReader.span(k.range, at) };
  }

  /**
   * A flow map or sequence (resolve-flow-collection.js), without comments, empty or trailing items,
   * explicit keys, or pairs inside a sequence: those are left to yaml.
   */
  private flow(fc: CST.FlowCollection, pointer: string, depth: number, at: number, out: { value: unknown }): Range3 {
    this.positions.set(pointer, 0);
    const isMap = fc.start.source === '{';
    const map: Record<string, unknown> = {};
    const list: unknown[] = [];
    const seen = new Set<string>();
    const slot = { value: undefined as unknown };
    let index = 0;
    for (const item of fc.items) {
      const { start, key, sep, value } = item;
      let commas = 0;
      for (const t of start) {
        if (t.type === 'comma') commas++;
        else if (t.type !== 'space' && t.type !== 'newline') bail();
      }
      if (commas !== (index === 0 ? 0 : 1) || !value) bail();
      if (value?.type === 'block-map' || value?.type === 'block-seq' || value?.type === 'block-scalar') bail();
      if (isMap) {
        if (!key || !sep) return bail();
        const k = this.key(key, at);
        if (seen.has(k.name)) bail();
        seen.add(k.name);
        for (const t of sep) if (t.type !== 'space' && t.type !== 'newline' && t.type !== 'map-value-ind') bail();
        if (sep.filter((t) => t.type === 'map-value-ind').length !== 1) bail();
        const child = this.table.child(pointer, escapePointer(k.name));
        this.keyRanges.set(child, entryOf(k.span));
        this.node(value as CST.Token, child, depth + 1, k.span, slot);
        map[k.name] = slot.value;
      } else {
        if (key || sep) bail();
        const r = this.node(value as CST.Token, this.table.child(pointer, String(index)), depth + 1, -1, slot);
        if (r[1] <= r[0]) bail(); // an item of no width would take the sequence's span: left to yaml
        list.push(slot.value);
      }
      index++;
    }
    const [close, ...after] = fc.end;
    if (close?.source !== (isMap ? '}' : ']')) bail();
    const cePos = (close as SourceToken).offset + 1;
    let end = cePos;
    let hasSpace = false;
    for (const t of after) {
      if (t.type === 'space' || t.type === 'newline') hasSpace = true;
      else if (t.type !== 'comment' || !hasSpace) bail();
      end += t.source.length;
    }
    const range: Range3 = [fc.offset, cePos, end];
    this.positions.set(pointer, entryOf(CstReader.span(range, at)));
    out.value = isMap ? map : list;
    return range;
  }

  private seq(bs: CST.BlockSequence, pointer: string, depth: number, at: number, out: { value: unknown }): Range3 {
    this.positions.set(pointer, 0);
    const result: unknown[] = [];
    let offset = bs.offset;
    let commentEnd: number | undefined;
    const slot = { value: undefined as unknown };
    // The items' fallback span is the sequence's own, known only at the end: record which entries used it.
    const pending: string[] = [];
    for (const item of bs.items) {
      const props = simpleProps(item.start, 'seq-item-ind', offset, true);
      if (!props.found) {
        if (item.value) bail();
        commentEnd = props.end;
        continue;
      }
      const child = this.table.child(pointer, String(result.length));
      let r: Range3;
      if (item.value) {
        r = this.node(item.value, child, depth + 1, -1, slot);
        result.push(slot.value);
      } else {
        r = this.empty(child, emptyPosition(props.end, item.start), -1, props);
        result.push(null);
      }
      if (r[1] <= r[0]) pending.push(child);
      offset = r[2];
    }
    if (commentEnd !== undefined && commentEnd < offset) bail();
    const range: Range3 = [bs.offset, offset, commentEnd ?? offset];
    const here = CstReader.span(range, at);
    this.positions.set(pointer, entryOf(here));
    // An item of no width takes the sequence's span (yaml Converter passes `here` down).
    for (const p of pending) this.positions.set(p, entryOf(here, 'PLAIN'));
    out.value = result;
    return range;
  }
}

/**
 * The documents of one file read from yaml's CST, or undefined when the file is not in the common case
 * (then the caller reads it through yaml's Documents, diagnostics and all).
 */
export function readCommonYaml(text: string, table: ShapeTable): FastDoc[] | undefined {
  if (text.includes('\t') || text.includes('\r')) return undefined;
  const docs: FastDoc[] = [];
  try {
    for (const token of new yamlParser.Parser().parse(text)) {
      switch (token.type) {
        case 'space':
        case 'comment':
        case 'newline':
          continue;
        case 'doc-end':
          if (docs.length === 0 || token.end?.some((t) => t.type !== 'space' && t.type !== 'comment' && t.type !== 'newline')) bail();
          continue;
        case 'document':
          break;
        default:
          bail();
      }
      const doc = token as CST.Document;
      const props = simpleProps(doc.start, 'doc-start', doc.offset, true);
      if (props.found && doc.value && (doc.value.type === 'block-map' || doc.value.type === 'block-seq') && !props.hasNewline) bail();
      if (doc.end?.some((t) => t.type !== 'space' && t.type !== 'comment' && t.type !== 'newline')) bail();
      const value = doc.value;
      if (!value) continue; // an empty document: nothing to check
      const reader = new CstReader(text, table);
      const out = { value: undefined as unknown };
      const r = reader.node(value, '', 0, -1, out);
      if (out.value === null) continue; // a document holding only `~` or `null`, skipped as the Document path does
      if (r[1] <= r[0]) bail();
      docs.push({ value: out.value, positions: reader.positions, keyRanges: reader.keyRanges, rawQuoted: reader.rawQuoted, numberSource: reader.numberSource, start: r[0], end: r[1] });
    }
  } catch (e) {
    if (isNotCommon(e)) return undefined;
    throw e;
  }
  return docs;
}
