/*
 * A small HCL 1 reader for Nomad ACL policy rules, keeping the position of every piece so a problem can
 * point at it. Nomad parses rules with HCL 1 (github.com/hashicorp/hcl v1): blocks with quoted labels,
 * `key = value` with strings, heredocs, numbers, bools and lists, `#`, `//` and `/* *\/` comments.
 * Positions are 1-based; `endCol` is the column just after the last character.
 */

export interface Span {
  line: number;
  col: number;
  endLine: number;
  endCol: number;
}

export interface Key {
  text: string;
  quoted: boolean;
  span: Span;
}

export type Value =
  | { kind: 'string'; value: string; span: Span }
  | { kind: 'number' | 'bool'; raw: string; span: Span }
  | { kind: 'list'; items: Value[]; span: Span }
  | { kind: 'object'; items: Item[]; span: Span };

/** `namespace "default" { ... }` (keys `namespace`, `"default"`, no `=`) or `policy = "read"` (`assign`). */
export interface Item {
  keys: Key[];
  assign: boolean;
  value: Value;
}

/** The first syntax error: where, what, and how to fix it. */
export interface SyntaxProblem {
  span: Span;
  summary: string;
  detail: string;
}

export class HclSyntax extends Error {
  constructor(readonly problem: SyntaxProblem) {
    super(problem.summary);
  }
}

type Kind = 'ident' | 'string' | 'heredoc' | 'number' | 'bool' | '{' | '}' | '[' | ']' | '=' | ',' | 'eof';

interface Token {
  kind: Kind;
  text: string;
  span: Span;
}

const PUNCT = new Set(['{', '}', '[', ']', '=', ',']);

/** Splits the text into tokens; throws HclSyntax on a string, heredoc or comment that never ends. */
function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const here = () => ({ line, col: i - lineStart + 1 });
  const moveTo = (to: number) => {
    for (; i < to; i++) {
      if (src[i] === '\n') {
        line++;
        lineStart = i + 1;
      }
    }
  };
  const token = (kind: Kind, text: string, to: number) => {
    const start = here();
    moveTo(to);
    out.push({ kind, text, span: { ...start, endLine: line, endCol: i - lineStart + 1 } });
  };
  const fail = (start: { line: number; col: number }, endCol: number, summary: string, detail: string): never => {
    throw new HclSyntax({ span: { ...start, endLine: start.line, endCol }, summary, detail });
  };
  while (i < src.length) {
    const c = src[i] as string;
    if (c === '\n' || c === ' ' || c === '\t' || c === '\r') {
      moveTo(i + 1);
    } else if (c === '#' || src.startsWith('//', i)) {
      const end = src.indexOf('\n', i);
      moveTo(end < 0 ? src.length : end);
    } else if (src.startsWith('/*', i)) {
      const end = src.indexOf('*/', i + 2);
      if (end < 0) fail(here(), here().col + 2, 'Unterminated comment', 'Close the comment that starts here with */.');
      moveTo(end + 2);
    } else if (PUNCT.has(c)) {
      token(c as Kind, c, i + 1);
    } else if (c === '"') {
      const str = readString(src, i, here(), fail);
      token('string', str.value, str.end);
    } else if (src.startsWith('<<', i)) {
      const m = /^<<-?([A-Za-z0-9_]+)\r?\n/.exec(src.slice(i));
      if (!m) fail(here(), here().col + 2, 'Heredoc without a marker', 'Write <<EOF, then the text on the next lines, then EOF alone on a line.');
      const head = m as RegExpExecArray;
      const rest = src.slice(i + head[0].length);
      // The closing line is the marker, optionally indented, with nothing after it (hcl/scanner scanHeredoc).
      const end = new RegExp(`^[ \\t\\v\\f]*${head[1]}\\r*$`, 'm').exec(rest);
      if (!end) fail(here(), here().col + head[0].trimEnd().length, `Heredoc ${head[1]} never ends`, `Add a line holding only ${head[1]} after the text.`);
      const e = end as RegExpExecArray;
      token('heredoc', rest.slice(0, e.index), i + head[0].length + e.index + e[0].length);
    } else {
      const num = /^-?(0[xX][0-9a-fA-F]+|\d+(\.\d+)?([eE][+-]?\d+)?)/.exec(src.slice(i));
      const id = /^[A-Za-z_][A-Za-z0-9_.-]*/.exec(src.slice(i));
      if (num) token('number', num[0], i + num[0].length);
      else if (id) token(id[0] === 'true' || id[0] === 'false' ? 'bool' : 'ident', id[0], i + id[0].length);
      else fail(here(), here().col + 1, `Unexpected character ${JSON.stringify(c)}`, 'Policy rules hold blocks like namespace "default" { policy = "read" }; remove this character.');
    }
  }
  out.push({ kind: 'eof', text: '', span: { line, col: i - lineStart + 1, endLine: line, endCol: i - lineStart + 1 } });
  return out;
}

type Fail = (start: { line: number; col: number }, endCol: number, summary: string, detail: string) => never;

const isOctal = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '7';
const isHex = (c: string | undefined): boolean => c !== undefined && /^[0-9a-fA-F]$/.test(c);

/** `\\` followed by what HCL 1 takes (hcl/scanner scanEscape, hcl/strconv unquoteChar): its value and length. */
function escapeAt(src: string, j: number): { value: string; length: number } | undefined {
  const e = src[j + 1];
  const simple: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', '"': '"' };
  if (e !== undefined && simple[e] !== undefined) return { value: simple[e], length: 2 };
  if (isOctal(e)) {
    // Exactly three octal digits, at most \377: the value is one byte.
    const digits = src.slice(j + 1, j + 4);
    if (digits.length < 3 || ![...digits].every(isOctal)) return undefined;
    const v = parseInt(digits, 8);
    return v > 255 ? undefined : { value: String.fromCharCode(v), length: 4 };
  }
  const width = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
  if (width === 0) return undefined;
  const digits = src.slice(j + 2, j + 2 + width);
  if (digits.length < width || ![...digits].every(isHex)) return undefined;
  const v = parseInt(digits, 16);
  if (e === 'x') return { value: String.fromCharCode(v), length: 2 + width };
  return v > 0x10ffff ? undefined : { value: v >= 0xd800 && v <= 0xdfff ? '\ufffd' : String.fromCodePoint(v), length: 2 + width };
}

/**
 * A quoted string from its opening quote: its value and the index just after the closing quote. As in
 * HCL 1's scanner, `${...}` is kept as written (quotes and newlines do not end the string inside it, and
 * braces nest), and every backslash must start a valid escape, inside `${...}` too.
 */
function readString(src: string, start: number, at: { line: number; col: number }, fail: Fail): { value: string; end: number } {
  let out = '';
  let braces = 0;
  for (let j = start + 1; ; ) {
    const d = src[j];
    if (d === undefined || (d === '\n' && braces === 0)) {
      const lineEnd = src.indexOf('\n', start);
      const width = (lineEnd < 0 ? src.length : lineEnd) - start;
      fail(at, at.col + width, 'Unterminated string', 'Close the string with " before the end of the line.');
    }
    if (d === '"' && braces === 0) return { value: out, end: j + 1 };
    if (d === '\\') {
      const e = escapeAt(src, j);
      if (!e) {
        const col = at.col + (j - start);
        fail(
          { line: at.line, col },
          col + 2,
          'Invalid escape in string',
          'After a backslash Nomad (HCL 1) takes a, b, f, n, r, t, v, \\, ", three octal digits (at most 377), x and two hex digits, u and four, or U and eight; write \\\\ for a backslash.',
        );
      }
      const esc = e as { value: string; length: number };
      out += braces === 0 ? esc.value : src.slice(j, j + esc.length);
      j += esc.length;
      continue;
    }
    if (braces === 0 && d === '$' && src[j + 1] === '{') {
      braces++;
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

const describe = (t: Token): string => (t.kind === 'eof' ? 'the end of the text' : t.kind === 'string' ? `"${t.text}"` : t.text);

/**
 * How deep blocks and lists may nest. The parser recurses once per level, and a few thousand levels
 * overflow the stack; Nomad's own grammar never goes past 4 (namespace, variables, path, capabilities),
 * so 100 refuses nothing real.
 */
export const MAX_HCL_NESTING = 100;

/** Parses rules into items; throws HclSyntax with the first syntax problem. */
export function parseHclTree(src: string): Item[] {
  const toks = tokenize(src);
  let p = 0;
  const peek = (): Token => toks[p] as Token;
  const next = (): Token => toks[p++] as Token;
  const fail = (span: Span, summary: string, detail: string): never => {
    throw new HclSyntax({ span, summary, detail });
  };

  const items = (open: Token | undefined, depth: number): Item[] => {
    const out: Item[] = [];
    for (;;) {
      const t = peek();
      if (t.kind === 'eof') {
        if (open) fail(open.span, 'Unclosed {', 'Add a } to close the block opened here (or remove this {).');
        return out;
      }
      if (t.kind === '}') {
        if (open) return out;
        fail(t.span, 'Unexpected }', 'Remove this }, or add the { it should close.');
      }
      out.push(item(depth));
      // HCL 1 takes a comma after any item, at the top level too.
      if (peek().kind === ',') next();
    }
  };

  const item = (depth: number): Item => {
    const keys: Key[] = [];
    for (;;) {
      const t = next();
      if (t.kind === 'ident' || t.kind === 'string') {
        keys.push({ text: t.text, quoted: t.kind === 'string', span: t.span });
        continue;
      }
      const first = keys[0];
      if (!first) {
        fail(t.span, `Expected a block or attribute name, found ${describe(t)}`, 'Start each entry with a name, e.g. namespace "default" { ... } or policy = "read".');
      }
      const name = keys.map((k) => (k.quoted ? `"${k.text}"` : k.text)).join(' ');
      if (t.kind === '=') {
        if (keys.length > 1) {
          fail(t.span, `A label cannot be followed by "=" (after ${name})`, `Write ${keys[0]?.text} = value for an attribute, or ${name} { ... } for a block.`);
        }
        const at = peek();
        if (at.kind === 'eof' || at.kind === '}' || at.kind === ']' || at.kind === ',' || at.kind === '=') {
          fail(at.span, `Missing value after ${name} =`, `Give ${name} a value, e.g. ${name} = "read" or ${name} = ["read-job"].`);
        }
        return { keys, assign: true, value: value(depth) };
      }
      if (t.kind === '{') return { keys, assign: false, value: object(t, depth + 1) };
      fail(t.span, `Expected "=" or "{" after ${name}, found ${describe(t)}`, `Write ${keys[0]?.text} = "value" for an attribute, or ${name} { ... } for a block.`);
    }
  };

  const object = (open: Token, depth: number): Value => {
    if (depth > MAX_HCL_NESTING) {
      fail(open.span, `Nested more than ${MAX_HCL_NESTING} levels deep`, `A policy needs at most 4 levels (namespace, variables, path, capabilities): remove the extra nesting that starts here.`);
    }
    const inner = items(open, depth);
    const close = next();
    return { kind: 'object', items: inner, span: { ...open.span, endLine: close.span.endLine, endCol: close.span.endCol } };
  };

  const value = (depth: number): Value => {
    const t = next();
    switch (t.kind) {
      case 'string':
      case 'heredoc':
        return { kind: 'string', value: t.text, span: t.span };
      case 'number':
      case 'bool':
        return { kind: t.kind, raw: t.text, span: t.span };
      case '{':
        return object(t, depth + 1);
      case '[': {
        if (depth + 1 > MAX_HCL_NESTING) {
          fail(t.span, `Nested more than ${MAX_HCL_NESTING} levels deep`, 'A policy needs at most 4 levels (namespace, variables, path, capabilities): remove the extra nesting that starts here.');
        }
        // As HCL 1's listType: commas separate items, and a stray one (leading, or doubled) is skipped.
        const list: Value[] = [];
        let needComma = false;
        for (;;) {
          const n = peek();
          if (n.kind === ']') {
            next();
            return { kind: 'list', items: list, span: { ...t.span, endLine: n.span.endLine, endCol: n.span.endCol } };
          }
          if (n.kind === 'eof') fail(t.span, 'Unclosed [', 'Add a ] to close the list opened here.');
          if (n.kind === ',') {
            next();
            needComma = false;
            continue;
          }
          if (needComma) fail(n.span, `Expected "," or "]" in the list, found ${describe(n)}`, 'Separate list items with commas: ["read-job", "submit-job"].');
          list.push(value(depth + 1));
          needComma = true;
        }
      }
      default:
        return fail(t.span, `Expected a value, found ${describe(t)}`, 'Values are quoted strings ("read"), lists (["read-job"]) or blocks ({ ... }).');
    }
  };

  return items(undefined, 0);
}
