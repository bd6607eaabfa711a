/*
 * The subset of HCL 1 (github.com/hashicorp/hcl v1, which Nomad's acl.Parse uses) that ACL policies
 * are written in: blocks with string labels, `key = value` with strings, heredocs, numbers, bools,
 * lists and objects, and `#`, `//`, `/* *\/` comments. It yields a plain tree; acl-policy-rules.ts gives
 * it meaning. Errors read like HCL 1's `At line:col: ...` (hcl/parser/error.go PosError); the words after
 * the position are close to, not always exactly, HCL 1's (see SPEC.md).
 */

export type HclValue =
  | { kind: 'string'; value: string }
  | { kind: 'number'; value: number }
  | { kind: 'bool'; value: boolean }
  | { kind: 'list'; items: HclValue[] }
  | { kind: 'object'; items: HclItem[] };

/** `namespace "default" { ... }` is keys `['namespace', 'default']` with an object value. */
export interface HclItem {
  keys: string[];
  value: HclValue;
}

export class HclSyntaxError extends Error {}

type TokKind = 'IDENT' | 'STRING' | 'NUMBER' | 'BOOL' | 'HEREDOC' | 'LBRACE' | 'RBRACE' | 'LBRACK' | 'RBRACK' | 'ASSIGN' | 'COMMA' | 'EOF';

interface Tok {
  kind: TokKind;
  text: string;
  line: number;
  col: number;
}

const PUNCT: Record<string, TokKind> = { '{': 'LBRACE', '}': 'RBRACE', '[': 'LBRACK', ']': 'RBRACK', '=': 'ASSIGN', ',': 'COMMA' };

/**
 * hcl/scanner scanString + scanEscape, then hcl/strconv Unquote: `${...}` is copied as written (braces
 * nest; quotes and newlines inside do not end the string), and every backslash starts an escape:
 * \\a \\b \\f \\n \\r \\t \\v \\\\ \\", three octal digits (at most \\377), \\x and 2 hex digits, \\u and 4, \\U and 8
 * (at most U+10FFFF).
 */
function scanString(src: string, start: number, fail: (msg: string, at: number) => never): { value: string; end: number } {
  const SIMPLE: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', '"': '"' };
  let out = '';
  let braces = 0;
  let j = start + 1;
  for (;;) {
    const d = src[j];
    if (d === undefined || (d === '\n' && braces === 0)) fail('literal not terminated', j);
    if (d === '"' && braces === 0) return { value: out, end: j + 1 };
    if (d === '\\') {
      const e = src[j + 1] ?? '';
      let len = 0;
      let ch = '';
      if (SIMPLE[e] !== undefined) {
        len = 2;
        ch = SIMPLE[e];
      } else if (/^[0-7]{3}$/.test(src.slice(j + 1, j + 4))) {
        const v = parseInt(src.slice(j + 1, j + 4), 8);
        if (v > 255) fail('invalid syntax (octal escape above \\377)', j);
        len = 4;
        ch = String.fromCharCode(v);
      } else {
        const width = { x: 2, u: 4, U: 8 }[e as 'x' | 'u' | 'U'] ?? 0;
        const hex = src.slice(j + 2, j + 2 + width);
        if (width === 0 || !new RegExp(`^[0-9a-fA-F]{${width}}$`).test(hex)) fail('illegal char escape', j);
        const v = parseInt(hex, 16);
        if (v > 0x10ffff) fail('invalid syntax (code point above U+10FFFF)', j);
        len = 2 + width;
        ch = e === 'x' ? String.fromCharCode(v) : v >= 0xd800 && v <= 0xdfff ? '\ufffd' : String.fromCodePoint(v);
      }
      out += braces === 0 ? ch : src.slice(j, j + len);
      j += len;
      continue;
    }
    if (braces === 0 && d === '$' && src[j + 1] === '{') {
      braces = 1;
      out += '${';
      j += 2;
      continue;
    }
    if (braces > 0 && d === '{') braces++;
    else if (braces > 0 && d === '}') braces--;
    out += d;
    j++;
  }
}

function lex(src: string): Tok[] {
  const toks: Tok[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const fail = (msg: string, at = i): never => {
    throw new HclSyntaxError(`At ${line}:${at - lineStart + 1}: ${msg}`);
  };
  const advance = (to: number) => {
    for (; i < to; i++) {
      if (src[i] === '\n') {
        line++;
        lineStart = i + 1;
      }
    }
  };
  while (i < src.length) {
    const c = src[i] as string;
    if (/\s/.test(c)) {
      advance(i + 1);
      continue;
    }
    if (c === '#' || src.startsWith('//', i)) {
      const end = src.indexOf('\n', i);
      advance(end < 0 ? src.length : end);
      continue;
    }
    if (src.startsWith('/*', i)) {
      const end = src.indexOf('*/', i + 2);
      if (end < 0) fail('comment not terminated');
      advance(end + 2);
      continue;
    }
    const at = { line, col: i - lineStart + 1 };
    const kind = PUNCT[c];
    if (kind) {
      toks.push({ kind, text: c, ...at });
      advance(i + 1);
      continue;
    }
    if (c === '"') {
      const str = scanString(src, i, (msg, at) => fail(msg, at));
      toks.push({ kind: 'STRING', text: str.value, ...at });
      advance(str.end);
      continue;
    }
    if (src.startsWith('<<', i)) {
      const m = /^<<-?([A-Za-z0-9_]+)\r?\n/.exec(src.slice(i));
      if (!m) fail('heredoc expected marker name');
      const marker = (m as RegExpExecArray)[1] as string;
      const bodyStart = i + (m as RegExpExecArray)[0].length;
      const rest = src.slice(bodyStart);
      // hcl/scanner scanHeredoc: `^[[:space:]]*MARKER\r*\z` on each line.
      const end = new RegExp(`^[ \\t\\v\\f]*${marker}\\r*$`, 'm').exec(rest);
      if (!end) fail('heredoc not terminated');
      const e = end as RegExpExecArray;
      toks.push({ kind: 'HEREDOC', text: rest.slice(0, e.index), ...at });
      advance(bodyStart + e.index + e[0].length);
      continue;
    }
    const num = /^-?(0[xX][0-9a-fA-F]+|\d+(\.\d+)?([eE][+-]?\d+)?)/.exec(src.slice(i));
    if (num) {
      toks.push({ kind: 'NUMBER', text: num[0], ...at });
      advance(i + num[0].length);
      continue;
    }
    const id = /^[A-Za-z_][A-Za-z0-9_.-]*/.exec(src.slice(i));
    if (id) {
      toks.push({ kind: id[0] === 'true' || id[0] === 'false' ? 'BOOL' : 'IDENT', text: id[0], ...at });
      advance(i + id[0].length);
      continue;
    }
    fail(`illegal char ${JSON.stringify(c)}`);
  }
  toks.push({ kind: 'EOF', text: '', line, col: i - lineStart + 1 });
  return toks;
}

/** Parses the text into its top-level items. Throws HclSyntaxError. */
export function parseHcl1(src: string): HclItem[] {
  const toks = lex(src);
  let p = 0;
  const peek = (): Tok => toks[p] as Tok;
  const next = (): Tok => toks[p++] as Tok;
  const fail = (t: Tok, msg: string): never => {
    throw new HclSyntaxError(`At ${t.line}:${t.col}: ${msg}`);
  };

  // The sandbox recurses once per level; past this many, a request would overflow its stack. Nomad (Go,
  // growing stacks) has no such limit, but no policy nests more than 5 deep (SPEC.md).
  const MAX_DEPTH = 500;
  const objectList = (inBraces: boolean, depth: number): HclItem[] => {
    const items: HclItem[] = [];
    for (;;) {
      const t = peek();
      if (t.kind === 'EOF') {
        if (inBraces) fail(t, 'object expected closing RBRACE got: EOF');
        return items;
      }
      if (inBraces && t.kind === 'RBRACE') return items;
      items.push(item(depth));
      // hcl/parser objectList: a comma may follow any item, at the top level too.
      if (peek().kind === 'COMMA') next();
    }
  };

  const item = (depth: number): HclItem => {
    const keys: string[] = [];
    for (;;) {
      const t = next();
      if (t.kind === 'IDENT' || t.kind === 'STRING') {
        keys.push(t.text);
        continue;
      }
      if (t.kind === 'ASSIGN') {
        if (keys.length === 0) fail(t, 'expected: IDENT | STRING got: ASSIGN');
        if (keys.length > 1) fail(t, `nested object expected: LBRACE got: ASSIGN`);
        return { keys, value: value(depth) };
      }
      if (t.kind === 'LBRACE') {
        if (keys.length === 0) fail(t, 'expected: IDENT | STRING got: LBRACE');
        return { keys, value: object(t, depth + 1) };
      }
      if (keys.length === 0) fail(t, `expected: IDENT | STRING got: ${t.kind}`);
      if (t.kind === 'EOF') fail(t, `key '${keys.join(' ')}' expected start of object ('{') or assignment ('=')`);
      fail(t, `expected: IDENT | STRING | ASSIGN | LBRACE got: ${t.kind}`);
    }
  };

  const object = (open: Tok, depth: number): HclValue => {
    if (depth > MAX_DEPTH) fail(open, `nesting deeper than ${MAX_DEPTH} levels (a sandbox limit)`);
    const items = objectList(true, depth);
    next(); // the RBRACE objectList stopped at
    return { kind: 'object', items };
  };

  const value = (depth: number): HclValue => {
    const t = next();
    switch (t.kind) {
      case 'STRING':
      case 'HEREDOC':
        return { kind: 'string', value: t.text };
      case 'NUMBER':
        return { kind: 'number', value: Number(t.text) };
      case 'BOOL':
        return { kind: 'bool', value: t.text === 'true' };
      case 'LBRACE':
        return object(t, depth + 1);
      case 'LBRACK': {
        // hcl/parser listType: a stray comma is skipped, true/false are dropped, items need commas between.
        if (depth + 1 > MAX_DEPTH) fail(t, `nesting deeper than ${MAX_DEPTH} levels (a sandbox limit)`);
        const items: HclValue[] = [];
        let needComma = false;
        for (;;) {
          const n = peek();
          if (n.kind === 'RBRACK') {
            next();
            return { kind: 'list', items };
          }
          if (n.kind === 'EOF') fail(n, 'list expected closing RBRACK got: EOF');
          if (needComma && n.kind !== 'COMMA') fail(n, `error parsing list, expected comma or list end, got: ${n.kind}`);
          if (n.kind === 'COMMA') {
            next();
            needComma = false;
            continue;
          }
          if (n.kind === 'BOOL') {
            next();
            continue;
          }
          items.push(value(depth + 1));
          needComma = true;
        }
      }
      default:
        return fail(t, `Unknown token: ${t.line}:${t.col} ${t.kind} ${t.text}`);
    }
  };

  return objectList(false, 0);
}
