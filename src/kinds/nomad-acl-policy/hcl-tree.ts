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
      token('string', readString(src, i, here(), fail), stringEnd(src, i));
    } else if (src.startsWith('<<', i)) {
      const m = /^<<-?([A-Za-z_][A-Za-z0-9_]*)\r?\n/.exec(src.slice(i));
      if (!m) fail(here(), here().col + 2, 'Heredoc without a marker', 'Write <<EOF, then the text on the next lines, then EOF alone on a line.');
      const head = m as RegExpExecArray;
      const rest = src.slice(i + head[0].length);
      const end = new RegExp(`^[ \\t]*${head[1]}[ \\t]*$`, 'm').exec(rest);
      if (!end) fail(here(), here().col + head[0].trimEnd().length, `Heredoc ${head[1]} never ends`, `Add a line holding only ${head[1]} after the text.`);
      const e = end as RegExpExecArray;
      token('heredoc', rest.slice(0, e.index), i + head[0].length + e.index + e[0].length);
    } else {
      const num = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(src.slice(i));
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

/** Index just after the closing quote (the string is known to end: readString ran first). */
function stringEnd(src: string, start: number): number {
  let j = start + 1;
  let depth = 0;
  while (j < src.length) {
    const d = src[j];
    if (d === '\\' && depth === 0) j += 2;
    else {
      if (d === '$' && src[j + 1] === '{') depth++;
      else if (d === '}' && depth > 0) depth--;
      else if (d === '"' && depth === 0) return j + 1;
      j++;
    }
  }
  return j;
}

/** The string's value; `${...}` is kept as written (HCL 1 allows quotes and newlines inside it). */
function readString(src: string, start: number, at: { line: number; col: number }, fail: Fail): string {
  const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '"': '"', '\\': '\\' };
  let out = '';
  let depth = 0;
  for (let j = start + 1; ; j++) {
    const d = src[j];
    if (d === undefined || ((d === '\n' || d === '\r') && depth === 0)) {
      const lineEnd = src.indexOf('\n', start);
      const width = (lineEnd < 0 ? src.length : lineEnd) - start;
      fail(at, at.col + width, 'Unterminated string', 'Close the string with " before the end of the line.');
    }
    if (d === '\\' && depth === 0) {
      const e = ESCAPES[src[j + 1] ?? ''];
      if (e === undefined) fail(at, at.col + (j - start) + 2, 'Invalid escape in string', 'Only \\n, \\t, \\r, \\" and \\\\ may follow a backslash; write \\\\ for a backslash.');
      out += e;
      j++;
      continue;
    }
    if (d === '$' && src[j + 1] === '{') depth++;
    else if (d === '}' && depth > 0) depth--;
    else if (d === '"' && depth === 0) return out;
    out += d;
  }
}

const describe = (t: Token): string => (t.kind === 'eof' ? 'the end of the text' : t.kind === 'string' ? `"${t.text}"` : t.text);

/** Parses rules into items; throws HclSyntax with the first syntax problem. */
export function parseHclTree(src: string): Item[] {
  const toks = tokenize(src);
  let p = 0;
  const peek = (): Token => toks[p] as Token;
  const next = (): Token => toks[p++] as Token;
  const fail = (span: Span, summary: string, detail: string): never => {
    throw new HclSyntax({ span, summary, detail });
  };

  const items = (open: Token | undefined): Item[] => {
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
      out.push(item());
      if (open && peek().kind === ',') next();
    }
  };

  const item = (): Item => {
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
        return { keys, assign: true, value: value() };
      }
      if (t.kind === '{') return { keys, assign: false, value: object(t) };
      fail(t.span, `Expected "=" or "{" after ${name}, found ${describe(t)}`, `Write ${keys[0]?.text} = "value" for an attribute, or ${name} { ... } for a block.`);
    }
  };

  const object = (open: Token): Value => {
    const inner = items(open);
    const close = next();
    return { kind: 'object', items: inner, span: { ...open.span, endLine: close.span.endLine, endCol: close.span.endCol } };
  };

  const value = (): Value => {
    const t = next();
    switch (t.kind) {
      case 'string':
      case 'heredoc':
        return { kind: 'string', value: t.text, span: t.span };
      case 'number':
      case 'bool':
        return { kind: t.kind, raw: t.text, span: t.span };
      case '{':
        return object(t);
      case '[': {
        const list: Value[] = [];
        for (;;) {
          const n = peek();
          if (n.kind === ']') {
            next();
            return { kind: 'list', items: list, span: { ...t.span, endLine: n.span.endLine, endCol: n.span.endCol } };
          }
          if (n.kind === 'eof') fail(t.span, 'Unclosed [', 'Add a ] to close the list opened here.');
          list.push(value());
          const sep = peek();
          if (sep.kind === ',') next();
          else if (sep.kind !== ']') fail(sep.span, `Expected "," or "]" in the list, found ${describe(sep)}`, 'Separate list items with commas: ["read-job", "submit-job"].');
        }
      }
      default:
        return fail(t.span, `Expected a value, found ${describe(t)}`, 'Values are quoted strings ("read"), lists (["read-job"]) or blocks ({ ... }).');
    }
  };

  return items(undefined);
}
