import { HclSyntax, MAX_HCL_NESTING, type Item, type Key, type Span, type Value } from './hcl-tree.js';

/*
 * Policy rules written as JSON, read into the same tree as HCL rules so the same checks run on both:
 * Nomad's acl.Parse hands JSON to HCL 1 too (hcl.Decode reads text starting with `{` as JSON), then
 * applies one grammar. As HCL 1's JSON parser (hcl/json/parser), this keeps every member in order,
 * duplicates included, and takes a trailing comma in an object or a list (acl/policy_test.go TestParse
 * writes its JSON policy with them). A list of objects stands for one item per object
 * (json/parser/flatten.go flattenListType), and under a labelled key (`namespace`, `node_pool`,
 * `host_volume`, `path`) each member of the object is a label: `{"namespace": {"default": {...}}}` is
 * `namespace "default" { ... }`. What HCL 1's JSON parser tolerates beyond that (an object closed by `]`)
 * is refused here as the syntax error it is.
 */

type Json =
  | { kind: 'string'; value: string; span: Span }
  | { kind: 'number' | 'bool' | 'null'; raw: string; span: Span }
  | { kind: 'array'; items: Json[]; span: Span }
  | { kind: 'object'; members: { key: Key; value: Json }[]; span: Span };

const LABELLED = new Set(['namespace', 'node_pool', 'host_volume', 'path']);

/** Parses JSON rules into policy items; throws HclSyntax with the first syntax problem, positioned. */
export function parseJsonTree(src: string): Item[] {
  const root = readJson(src);
  if (root.kind !== 'object') {
    throw new HclSyntax({ span: root.span, summary: 'JSON rules must be one object', detail: 'Write {"namespace": {"default": {"policy": "read"}}}.' });
  }
  return items(root);
}

function items(o: Extract<Json, { kind: 'object' }>): Item[] {
  const out: Item[] = [];
  for (const { key, value } of o.members) {
    const parts = value.kind === 'array' && value.items.length > 0 && value.items.every((x) => x.kind === 'object') ? value.items : [value];
    for (const part of parts) {
      const labelled = LABELLED.has(key.text.toLowerCase()) && part.kind === 'object' && part.members.length > 0 && part.members.every((m) => isBody(m.value));
      if (!labelled) {
        out.push({ keys: [key], assign: part.kind !== 'object', value: toValue(part) });
        continue;
      }
      for (const m of part.members) {
        const bodies = m.value.kind === 'array' ? m.value.items : [m.value];
        for (const body of bodies) out.push({ keys: [key, m.key], assign: false, value: toValue(body) });
      }
    }
  }
  return out;
}

const isBody = (v: Json): boolean => v.kind === 'object' || (v.kind === 'array' && v.items.length > 0 && v.items.every((x) => x.kind === 'object'));

function toValue(v: Json): Value {
  switch (v.kind) {
    case 'string':
      return v;
    case 'number':
    case 'bool':
      return { kind: v.kind, raw: v.raw, span: v.span };
    case 'null':
      return { kind: 'number', raw: 'null', span: v.span };
    case 'array':
      return { kind: 'list', items: v.items.map(toValue), span: v.span };
    case 'object':
      return { kind: 'object', items: items(v), span: v.span };
  }
}

/** A JSON reader that keeps positions (1-based, `endCol` just after) and nests at most MAX_HCL_NESTING deep. */
function readJson(src: string): Json {
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const at = () => ({ line, col: i - lineStart + 1 });
  const spanFrom = (start: { line: number; col: number }): Span => ({ ...start, endLine: line, endCol: i - lineStart + 1 });
  const fail = (summary: string, detail: string, start = at()): never => {
    throw new HclSyntax({ span: { ...start, endLine: start.line, endCol: start.col + 1 }, summary, detail });
  };
  const skip = () => {
    for (;;) {
      const c = src[i];
      if (c === '\n') {
        i++;
        line++;
        lineStart = i;
      } else if (c === ' ' || c === '\t' || c === '\r') i++;
      else return;
    }
  };
  const found = (): string => (i >= src.length ? 'the end of the text' : JSON.stringify(src[i]));

  const string = (): Extract<Json, { kind: 'string' }> => {
    const start = at();
    let j = i + 1;
    let out = '';
    for (;;) {
      const d = src[j];
      if (d === undefined || d === '\n') fail('Unterminated string', 'Close the string with " before the end of the line.', start);
      if (d === '"') break;
      if (d === '\\') {
        const e = src[j + 1] ?? '';
        const simple: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
        if (simple[e] !== undefined) {
          out += simple[e];
          j += 2;
          continue;
        }
        const hex = src.slice(j + 2, j + 6);
        if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(hex)) {
          out += String.fromCharCode(parseInt(hex, 16));
          j += 6;
          continue;
        }
        i = j;
        fail('Invalid escape in JSON string', 'JSON takes \\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t and \\uXXXX after a backslash.', { line, col: j - lineStart + 1 });
      }
      out += d;
      j++;
    }
    i = j + 1;
    return { kind: 'string', value: out, span: spanFrom(start) };
  };

  const value = (depth: number): Json => {
    skip();
    const start = at();
    const c = src[i];
    if (c === '"') return string();
    if (c === '{' || c === '[') {
      if (depth >= MAX_HCL_NESTING) fail(`Nested more than ${MAX_HCL_NESTING} levels deep`, 'A policy needs at most 5 levels: remove the extra nesting that starts here.');
      i++;
      return c === '{' ? object(start, depth + 1) : array(start, depth + 1);
    }
    const lit = /^(true|false|null|-?\d+(\.\d+)?([eE][+-]?\d+)?)/.exec(src.slice(i, i + 64));
    if (!lit) return fail(`Expected a JSON value, found ${found()}`, 'Values are "strings", numbers, true, false, [lists] or {objects}.');
    i += lit[0].length;
    const kind = lit[0] === 'true' || lit[0] === 'false' ? 'bool' : lit[0] === 'null' ? 'null' : 'number';
    return { kind, raw: lit[0], span: spanFrom(start) };
  };

  const object = (start: { line: number; col: number }, depth: number): Json => {
    const members: { key: Key; value: Json }[] = [];
    for (;;) {
      skip();
      if (src[i] === '}') {
        i++;
        return { kind: 'object', members, span: spanFrom(start) };
      }
      if (src[i] !== '"') fail(i >= src.length ? 'Unclosed {' : `Expected a quoted key or }, found ${found()}`, 'Close the object opened here with }, or write "key": value.', i >= src.length ? start : at());
      const k = string();
      skip();
      if (src[i] !== ':') fail(`Expected ":" after the key "${k.value}", found ${found()}`, 'Write "key": value.');
      i++;
      members.push({ key: { text: k.value, quoted: true, span: k.span }, value: value(depth) });
      skip();
      if (src[i] === ',') i++;
      else if (src[i] !== '}') fail(`Expected "," or "}" in the object, found ${found()}`, 'Separate members with commas and close the object with }.');
    }
  };

  const array = (start: { line: number; col: number }, depth: number): Json => {
    const list: Json[] = [];
    for (;;) {
      skip();
      if (src[i] === ']') {
        i++;
        return { kind: 'array', items: list, span: spanFrom(start) };
      }
      if (i >= src.length) fail('Unclosed [', 'Add a ] to close the list opened here.', start);
      list.push(value(depth));
      skip();
      if (src[i] === ',') i++;
      else if (src[i] !== ']') fail(`Expected "," or "]" in the list, found ${found()}`, 'Separate list items with commas: ["read-job", "submit-job"].');
    }
  };

  const root = value(0);
  skip();
  if (i < src.length) fail(`Unexpected ${found()} after the JSON object`, 'JSON rules are one object: remove what follows its closing }.');
  return root;
}
