/**
 * A parse check for binding-rule selectors: a subset of go-bexpr's grammar, enough to tell a well-formed
 * selector from a broken one (docs/reference/nomad-api.md §10: "parse-checked"). Logins evaluate selectors
 * with login-selector.ts. Error texts imitate go-bexpr's pigeon parser (`1:COL (OFFSET): no match found,
 * expected: ...`) but are not byte-for-byte the same.
 *
 *   Input    := OrExpr EOF
 *   OrExpr   := AndExpr ("or" AndExpr)*          AndExpr := NotExpr ("and" NotExpr)*
 *   NotExpr  := "not" NotExpr | "(" OrExpr ")" | Match
 *   Match    := Selector ("=="|"!=") Value | Selector "is" ["not"] "empty"
 *             | Selector ["not"] ("contains"|"matches") Value | Value ["not"] "in" Selector
 *   Selector := Ident ("." Ident | "[" String "]")*     Ident := [a-zA-Z][a-zA-Z0-9_/]*
 *   Value    := Selector | Number | String ("..." or `...`)
 */
export class SelectorError extends Error {}

type Operand = { kind: 'selector' | 'number' | 'string'; text: string };

export function checkSelector(src: string): void {
  let i = 0;
  const fail = (expected: string): never => {
    throw new SelectorError(`1:${i + 1} (${i}): no match found, expected: ${expected}`);
  };
  const ws = (): boolean => {
    const start = i;
    while (i < src.length && ' \t\r\n'.includes(src[i] ?? '')) i++;
    return i > start;
  };
  /** A keyword must be followed by a space, `(` or the end, so `nothing` is an identifier, not `not`. */
  const keyword = (word: string): boolean => {
    if (!src.startsWith(word, i)) return false;
    const next = src[i + word.length];
    if (next !== undefined && !' \t\r\n('.includes(next)) return false;
    i += word.length;
    return true;
  };
  const ident = (): string | undefined => {
    const m = /^[a-zA-Z][a-zA-Z0-9_/]*/.exec(src.slice(i));
    if (!m) return undefined;
    i += m[0].length;
    return m[0];
  };
  const string = (): string | undefined => {
    const q = src[i];
    if (q !== '"' && q !== '`') return undefined;
    const start = i;
    i++;
    while (i < src.length && src[i] !== q) {
      if (q === '"' && src[i] === '\\') i++;
      i++;
    }
    if (i >= src.length) fail(q === '"' ? '"\\"", "\\\\" or [^"\\\\]' : '"`" or [^`]');
    i++;
    return src.slice(start + 1, i - 1);
  };
  const selector = (): string | undefined => {
    const start = i;
    if (ident() === undefined) return undefined;
    for (;;) {
      if (src[i] === '.') {
        i++;
        if (ident() === undefined) fail('[a-zA-Z]');
      } else if (src[i] === '[') {
        i++;
        ws();
        if (string() === undefined) fail('"\\"" or "`"');
        ws();
        if (src[i] !== ']') fail('"]"');
        i++;
      } else return src.slice(start, i);
    }
  };
  const operand = (): Operand | undefined => {
    const num = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?/.exec(src.slice(i));
    if (num) {
      i += num[0].length;
      return { kind: 'number', text: num[0] };
    }
    const s = string();
    if (s !== undefined) return { kind: 'string', text: s };
    const sel = selector();
    return sel === undefined ? undefined : { kind: 'selector', text: sel };
  };
  const value = (): Operand => operand() ?? fail('"-", "\\"", "`", [0-9] or [a-zA-Z]');
  const match = (): void => {
    const left = operand();
    if (!left) fail('"(", "-", "\\"", "`", "not", [0-9] or [a-zA-Z]');
    const spaced = ws();
    if (left?.kind === 'selector') {
      if (src.startsWith('==', i) || src.startsWith('!=', i)) {
        i += 2;
        ws();
        value();
        return;
      }
      if (spaced && keyword('is')) {
        ws();
        if (keyword('not')) ws();
        if (!keyword('empty')) fail('"empty" or "not"');
        return;
      }
    }
    if (!spaced) fail('"!=", "==", "contains", "in", "is", "matches", "not" or [ \\t\\r\\n]');
    const negated = keyword('not');
    if (negated) ws();
    if (left?.kind === 'selector' && (src.startsWith('contains', i) || src.startsWith('matches', i))) {
      const isMatches = src.startsWith('matches', i);
      i += isMatches ? 7 : 8;
      if (!ws()) fail('[ \\t\\r\\n]');
      const v = value();
      if (isMatches) {
        try {
          new RegExp(v.text);
        } catch {
          throw new SelectorError(`Failed to compile regular expression ${JSON.stringify(v.text)}`);
        }
      }
      return;
    }
    if (keyword('in')) {
      ws();
      if (selector() === undefined) fail('[a-zA-Z]');
      return;
    }
    fail(negated ? '"contains", "in" or "matches"' : '"!=", "==", "contains", "in", "is", "matches" or "not"');
  };
  const notExpr = (): void => {
    ws();
    if (keyword('not')) {
      notExpr();
      return;
    }
    if (src[i] === '(') {
      i++;
      orExpr();
      ws();
      if (src[i] !== ')') fail('")", "and" or "or"');
      i++;
      return;
    }
    match();
  };
  const chain = (word: string, next: () => void): void => {
    next();
    for (;;) {
      const save = i;
      ws();
      if (keyword(word)) {
        next();
        continue;
      }
      i = save;
      return;
    }
  };
  const andExpr = () => chain('and', notExpr);
  const orExpr = () => chain('or', andExpr);
  orExpr();
  ws();
  if (i < src.length) fail('"and", "or" or EOF');
}
