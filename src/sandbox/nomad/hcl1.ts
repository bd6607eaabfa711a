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
      let j = i + 1;
      let out = '';
      let depth = 0; // inside ${ }, quotes and newlines do not end the string (HCL 1 scanner)
      for (;;) {
        const d = src[j];
        if (d === undefined || (d === '\n' && depth === 0)) fail('literal not terminated');
        if (d === '\\' && depth === 0) {
          const e = src[j + 1];
          const map: Record<string, string> = { n: '\n', t: '\t', r: '\r', '"': '"', '\\': '\\' };
          if (e === undefined || map[e] === undefined) fail('invalid escape sequence', j);
          out += map[e as string];
          j += 2;
          continue;
        }
        if (d === '$' && src[j + 1] === '{') depth++;
        else if (d === '}' && depth > 0) depth--;
        else if (d === '"' && depth === 0) break;
        out += d;
        j++;
      }
      toks.push({ kind: 'STRING', text: out, ...at });
      advance(j + 1);
      continue;
    }
    if (src.startsWith('<<', i)) {
      const m = /^<<-?([A-Za-z_][A-Za-z0-9_]*)\r?\n/.exec(src.slice(i));
      if (!m) fail('heredoc expected marker name');
      const marker = (m as RegExpExecArray)[1] as string;
      const bodyStart = i + (m as RegExpExecArray)[0].length;
      const rest = src.slice(bodyStart);
      const end = new RegExp(`^[ \\t]*${marker}[ \\t]*$`, 'm').exec(rest);
      if (!end) fail('heredoc not terminated');
      const e = end as RegExpExecArray;
      toks.push({ kind: 'HEREDOC', text: rest.slice(0, e.index), ...at });
      advance(bodyStart + e.index + e[0].length);
      continue;
    }
    const num = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(src.slice(i));
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

  const objectList = (inBraces: boolean): HclItem[] => {
    const items: HclItem[] = [];
    for (;;) {
      const t = peek();
      if (t.kind === 'EOF') {
        if (inBraces) fail(t, 'object expected closing RBRACE got: EOF');
        return items;
      }
      if (inBraces && t.kind === 'RBRACE') return items;
      items.push(item());
      if (inBraces && peek().kind === 'COMMA') next();
    }
  };

  const item = (): HclItem => {
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
        return { keys, value: value() };
      }
      if (t.kind === 'LBRACE') {
        if (keys.length === 0) fail(t, 'expected: IDENT | STRING got: LBRACE');
        return { keys, value: object() };
      }
      if (keys.length === 0) fail(t, `expected: IDENT | STRING got: ${t.kind}`);
      if (t.kind === 'EOF') fail(t, `key '${keys.join(' ')}' expected start of object ('{') or assignment ('=')`);
      fail(t, `expected: IDENT | STRING | ASSIGN | LBRACE got: ${t.kind}`);
    }
  };

  const object = (): HclValue => {
    const items = objectList(true);
    next(); // the RBRACE objectList stopped at
    return { kind: 'object', items };
  };

  const value = (): HclValue => {
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
        return object();
      case 'LBRACK': {
        const items: HclValue[] = [];
        for (;;) {
          if (peek().kind === 'RBRACK') {
            next();
            return { kind: 'list', items };
          }
          if (peek().kind === 'EOF') fail(peek(), 'list expected closing RBRACK got: EOF');
          items.push(value());
          const sep = peek();
          if (sep.kind === 'COMMA') next();
          else if (sep.kind !== 'RBRACK') fail(sep, `list expected comma or RBRACK got: ${sep.kind}`);
        }
      }
      default:
        return fail(t, `Unknown token: ${t.line}:${t.col} ${t.kind} ${t.text}`);
    }
  };

  return objectList(false);
}
