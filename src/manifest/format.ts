import { isMap, isScalar, isSeq, LineCounter, parseAllDocuments, type Document, type Node } from 'yaml';
import type { Diagnostic } from '../diagnostics/types.js';
import { holdsNoConvergeDocument } from './foreign-yaml.js';
import { isDocumentKind, kindSchema } from './schema.js';

/*
 * `converge fmt`: a manifest file in one canonical layout, its comments kept (the `yaml` package's Document
 * API carries each comment on the node it belongs to, so a key moved takes its comments along;
 * https://eemeli.org/yaml/#comments-and-blank-lines). The layout: top-level keys `kind`, `name`, `metadata`,
 * then the others in the kind's schema order with `spec` last; every map below in the order of the schema's
 * `properties` (keys the schema does not name keep their order, after the named ones); 2-space indentation;
 * no `---` before the first document, one between documents. Values are never changed: parsing the output
 * gives the same data. A file that does not parse is not touched (its errors are reported instead), nor is a
 * file that holds no converge document (YAML of another tool).
 */

export type FormatResult =
  | { status: 'formatted'; text: string }
  | { status: 'foreign' }
  | { status: 'invalid'; diagnostics: Diagnostic[] };

type Schema = Record<string, unknown>;

const FIRST = ['kind', 'name', 'metadata'];
const LAST = ['spec'];

export function formatManifest(text: string, file: string): FormatResult {
  const lineCounter = new LineCounter();
  const docs = parseAllDocuments(text, { lineCounter, prettyErrors: false });
  if (!Array.isArray(docs)) return { status: 'formatted', text };
  const diagnostics = docs.flatMap((d) => d.errors.map((e): Diagnostic => {
    const [start, end] = e.linePos ?? [lineCounter.linePos(e.pos[0]), lineCounter.linePos(e.pos[1])];
    const at = { line: start.line, col: start.col };
    return {
      severity: 'error',
      code: 'fmt.yaml-syntax',
      summary: `${e.message.split('\n')[0] ?? e.message}: not formatted`,
      detail: 'fmt changes nothing in a file it cannot parse: fix the YAML, then run converge fmt again',
      range: { file, start: at, end: end ? { line: end.line, col: end.col } : at },
    };
  }));
  if (diagnostics.length > 0) return { status: 'invalid', diagnostics };
  if (holdsNoConvergeDocument(docs.map((d) => d.toJS() as unknown))) return { status: 'foreign' };
  const parts = docs
    .filter((d) => !(d.contents === null || (isScalar(d.contents) && d.contents.value === null)) || d.commentBefore || d.comment)
    .map((d) => {
      canonicalDocument(d);
      return d.toString({ indent: 2, lineWidth: 0, flowCollectionPadding: false });
    });
  return { status: 'formatted', text: parts.join('---\n') };
}

function canonicalDocument(doc: Document): void {
  if (doc.directives) doc.directives.docStart = null;
  const root = doc.contents;
  if (!isMap(root)) return;
  const kindNode = root.get('kind');
  const kind = typeof kindNode === 'string' && isDocumentKind(kindNode) ? kindNode : undefined;
  const schema = kind !== undefined ? kindSchema(kind) : undefined;
  // A comment above the first key is the document's: it stays on top when that key moves.
  const first = root.items[0]?.key;
  if (isScalar(first) && first.commentBefore) {
    doc.commentBefore = [doc.commentBefore, first.commentBefore].filter(Boolean).join('\n');
    first.commentBefore = undefined;
  }
  const order = [...FIRST, ...Object.keys(properties(schema)).filter((k) => !FIRST.includes(k) && !LAST.includes(k)), ...LAST];
  sortMapKeys(root, order);
  for (const pair of root.items) {
    const key = keyOf(pair.key);
    if (key !== undefined && isNode(pair.value)) canonicalNode(pair.value, properties(schema)[key], schema);
  }
}

/** Orders a map by its schema's properties, then goes down into its values and list items. */
function canonicalNode(node: Node, schema: unknown, root: Schema | undefined): void {
  const s = resolveRef(schema, root);
  if (isMap(node)) {
    // A comment above the first key heads the map: it stays on top when that key moves.
    const first = node.items[0]?.key;
    if (isScalar(first) && first.commentBefore) {
      node.commentBefore = [node.commentBefore, first.commentBefore].filter(Boolean).join('\n');
      first.commentBefore = undefined;
    }
    const props = properties(s);
    sortMapKeys(node, Object.keys(props));
    for (const pair of node.items) {
      const key = keyOf(pair.key);
      const sub = key !== undefined ? (props[key] ?? additional(s)) : undefined;
      if (isNode(pair.value)) canonicalNode(pair.value, sub, root);
    }
  } else if (isSeq(node)) {
    const items = s !== undefined && typeof s.items === 'object' ? s.items : undefined;
    for (const item of node.items) if (isNode(item)) canonicalNode(item, items, root);
  }
}

/** A stable sort: keys in `order` first, in that order; every other key after them, as it was. */
function sortMapKeys(map: { items: { key: unknown }[] }, order: readonly string[]): void {
  const rank = (key: unknown): number => {
    const k = keyOf(key);
    const i = k === undefined ? -1 : order.indexOf(k);
    return i === -1 ? order.length : i;
  };
  const ranked = map.items.map((item, i) => ({ item, i, r: rank(item.key) }));
  ranked.sort((a, b) => a.r - b.r || a.i - b.i);
  map.items = ranked.map((x) => x.item);
}

function keyOf(key: unknown): string | undefined {
  if (isScalar(key)) return typeof key.value === 'string' ? key.value : undefined;
  return typeof key === 'string' ? key : undefined;
}

function isNode(v: unknown): v is Node {
  return isMap(v) || isSeq(v) || isScalar(v);
}

function properties(schema: unknown): Record<string, unknown> {
  if (typeof schema !== 'object' || schema === null) return {};
  const p = (schema as Schema).properties;
  return typeof p === 'object' && p !== null ? (p as Record<string, unknown>) : {};
}

function additional(schema: Schema | undefined): unknown {
  return schema !== undefined && typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
}

/** A local `$ref` (`#/definitions/x`) to what it names; anything else as it is. */
function resolveRef(schema: unknown, root: Schema | undefined): Schema | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  const s = schema as Schema;
  if (typeof s.$ref !== 'string' || !s.$ref.startsWith('#/') || root === undefined) return s;
  let at: unknown = root;
  for (const part of s.$ref.slice(2).split('/')) at = typeof at === 'object' && at !== null ? (at as Schema)[part] : undefined;
  return typeof at === 'object' && at !== null ? (at as Schema) : undefined;
}
