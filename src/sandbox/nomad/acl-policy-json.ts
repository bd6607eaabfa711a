import { HclSyntaxError, type HclItem, type HclValue } from './hcl1.js';

/*
 * Rules written as JSON, which HCL 1 reads too when the text starts with `{` (Nomad's docs show the same
 * policy in both forms). Labels are object keys: `{"namespace": {"default": {"policy": "read"}}}` is
 * `namespace "default" { policy = "read" }`; a list of such objects (`"namespace": [{"default": {...}}]`)
 * means the same. This reads that documented shape, not every flattening HCL 1's JSON parser does.
 */

/** Keys whose object value holds labels, not fields. */
const LABELLED = new Set(['namespace', 'node_pool', 'host_volume', 'path']);

/** A JSON value with every object member kept in order, duplicates included (HCL 1 keeps them all). */
type J = string | number | boolean | null | J[] | { members: [string, J][] };

const isObject = (v: J): v is { members: [string, J][] } => typeof v === 'object' && v !== null && !Array.isArray(v);

function value(v: J): HclValue {
  if (typeof v === 'string') return { kind: 'string', value: v };
  if (typeof v === 'number') return { kind: 'number', value: v };
  if (typeof v === 'boolean') return { kind: 'bool', value: v };
  if (Array.isArray(v)) return { kind: 'list', items: v.map(value) };
  if (isObject(v)) return { kind: 'object', items: items(v) };
  return { kind: 'string', value: '' };
}

function items(o: { members: [string, J][] }): HclItem[] {
  const out: HclItem[] = [];
  for (const [key, v] of o.members) {
    const parts = Array.isArray(v) && v.every(isObject) && v.length > 0 ? v : [v];
    for (const part of parts) {
      if (LABELLED.has(key.toLowerCase()) && isObject(part)) {
        for (const [label, body] of part.members) out.push({ keys: [key, label], value: value(body) });
      } else {
        out.push({ keys: [key], value: value(part) });
      }
    }
  }
  return out;
}

/**
 * JSON as HCL 1's JSON parser (hcl/json/parser) reads it: members in order, duplicates kept, and a
 * trailing comma allowed in objects and lists (acl/policy_test.go TestParse's JSON policy has them).
 */
function readJson(src: string): J {
  let i = 0;
  const fail = (msg: string): never => {
    const before = src.slice(0, i).split('\n');
    throw new HclSyntaxError(`At ${before.length}:${(before[before.length - 1] ?? '').length + 1}: ${msg}`);
  };
  const ws = () => {
    while (i < src.length && ' \t\r\n'.includes(src[i] as string)) i++;
  };
  const str = (): string => {
    const m = /^"((?:[^"\\\n]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*)"/.exec(src.slice(i));
    if (!m) return fail('invalid string');
    i += m[0].length;
    // A raw tab inside a string: HCL 1's scanner keeps it, JSON.parse would not.
    const escaped = [...m[0]].map((ch) => (ch.charCodeAt(0) < 0x20 ? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}` : ch)).join('');
    return JSON.parse(escaped) as string;
  };
  const val = (depth: number): J => {
    ws();
    if (depth > 500) fail('nesting deeper than 500 levels (a sandbox limit)');
    const c = src[i];
    if (c === '"') return str();
    if (c === '{' || c === '[') {
      i++;
      const close = c === '{' ? '}' : ']';
      const members: [string, J][] = [];
      const list: J[] = [];
      for (;;) {
        ws();
        if (src[i] === close) {
          i++;
          return c === '{' ? { members } : list;
        }
        if (c === '{') {
          if (src[i] !== '"') fail(`expected: STRING got: ${src[i] ?? 'EOF'}`);
          const k = str();
          ws();
          if (src[i] !== ':') fail(`expected: COLON got: ${src[i] ?? 'EOF'}`);
          i++;
          members.push([k, val(depth + 1)]);
        } else {
          list.push(val(depth + 1));
        }
        ws();
        if (src[i] === ',') i++;
        else if (src[i] !== close) fail(`expected comma or ${close} got: ${src[i] ?? 'EOF'}`);
      }
    }
    const m = /^(true|false|null|-?\d+(\.\d+)?([eE][+-]?\d+)?)/.exec(src.slice(i, i + 64));
    if (!m) return fail(`Unknown token: ${src[i] ?? 'EOF'}`);
    i += m[0].length;
    return JSON.parse(m[0]) as J;
  };
  const root = val(0);
  ws();
  if (i < src.length) fail(`unexpected ${src[i]} after the root object`);
  return root;
}

/** The items of JSON rules; a JSON syntax error reads like HCL 1's (`At line:col: ...`). */
export function parseJsonRules(src: string): HclItem[] {
  const parsed = readJson(src);
  if (!isObject(parsed)) throw new HclSyntaxError('At 1:1: root should be an object');
  return items(parsed);
}
