/**
 * A local syntax check for binding-rule selectors, which Nomad parses with go-bexpr
 * (docs/reference/nomad-api.md §10: "parse-checked"; a bad one is a 400 `selector is invalid`).
 * Grammar (hashicorp/go-bexpr grammar.peg):
 *   or    := and ("or" and)*
 *   and   := not ("and" not)*
 *   not   := "not" not | "(" or ")" | match
 *   match := selector ("==" | "!=" | ["not"] "contains" | ["not"] "matches") value
 *          | selector "is" ["not"] "empty"
 *          | value ["not"] "in" selector
 *   selector := ident ("." ident | "[" string "]")*      ident := [a-zA-Z][a-zA-Z0-9_/]*
 *   value := selector | number | "string" | `raw string`
 * Columns are 1-based offsets into the selector text.
 */

/** The parsed selector, for evaluation (src/login/bexpr.ts). `raw` is the value as go-bexpr keeps it. */
export type SelectorNode =
  | { kind: 'and' | 'or'; left: SelectorNode; right: SelectorNode }
  | { kind: 'not'; operand: SelectorNode }
  | {
      kind: 'match';
      op: '==' | '!=' | 'in' | 'not in' | 'is empty' | 'is not empty' | 'matches' | 'not matches';
      /** The selector's path, e.g. ["list", "groups"] for list.groups or list["groups"]. */
      path: string[];
      /** The selector as written. */
      selector: string;
      /** The value's text (a string decoded, a number or bare word as written); undefined for is empty. */
      raw?: string;
      /** The whole expression as written, for explanations. */
      text: string;
    };

export interface SelectorError {
  message: string;
  /** 1-based column inside the selector */
  col: number;
}

type TokKind = 'ident' | 'string' | 'number' | 'op' | 'lparen' | 'rparen' | 'eof';
interface Tok {
  kind: TokKind;
  text: string;
  col: number;
  /** for strings: the decoded value */
  value?: string;
}

const KEYWORDS = new Set(['and', 'or', 'not', 'in', 'is', 'empty', 'contains', 'matches']);

class SelectorSyntaxError extends Error {
  constructor(
    message: string,
    readonly col: number,
  ) {
    super(message);
  }
}

function tokenize(src: string): Tok[] {
  const toks: Tok[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i] ?? '';
    const col = i + 1;
    if (/\s/.test(c)) {
      i++;
    } else if (c === '(') {
      toks.push({ kind: 'lparen', text: c, col });
      i++;
    } else if (c === ')') {
      toks.push({ kind: 'rparen', text: c, col });
      i++;
    } else if (c === '=' || c === '!') {
      if (src[i + 1] !== '=') throw new SelectorSyntaxError(`unexpected "${c}" (did you mean "${c === '=' ? '==' : '!='}"?)`, col);
      toks.push({ kind: 'op', text: c + '=', col });
      i += 2;
    } else if (c === '"') {
      let j = i + 1;
      let value = '';
      for (;;) {
        const d = src[j];
        if (d === undefined) throw new SelectorSyntaxError('unterminated string (missing closing ")', col);
        if (d === '"') break;
        if (d === '\\') {
          const e = src[j + 1];
          if (e === undefined) throw new SelectorSyntaxError('unterminated string (missing closing ")', col);
          value += e === 'n' ? '\n' : e === 't' ? '\t' : e;
          j += 2;
          continue;
        }
        value += d;
        j++;
      }
      toks.push({ kind: 'string', text: src.slice(i, j + 1), col, value });
      i = j + 1;
    } else if (c === '`') {
      const j = src.indexOf('`', i + 1);
      if (j < 0) throw new SelectorSyntaxError('unterminated raw string (missing closing `)', col);
      toks.push({ kind: 'string', text: src.slice(i, j + 1), col, value: src.slice(i + 1, j) });
      i = j + 1;
    } else if (/[-0-9]/.test(c)) {
      const m = /^-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?/.exec(src.slice(i));
      if (!m) throw new SelectorSyntaxError(`unexpected "${c}"`, col);
      toks.push({ kind: 'number', text: m[0], col });
      i += m[0].length;
    } else if (/[a-zA-Z]/.test(c)) {
      // A whole selector path is one token: ident(.ident | [ "key" ])*
      let j = i;
      const ident = (): void => {
        const m = /^[a-zA-Z][a-zA-Z0-9_/]*/.exec(src.slice(j));
        if (!m) throw new SelectorSyntaxError('expected a field name after "."', j + 1);
        j += m[0].length;
      };
      ident();
      for (;;) {
        if (src[j] === '.') {
          j++;
          ident();
        } else if (src[j] === '[') {
          const m = /^\[\s*("(?:[^"\\]|\\.)*"|`[^`]*`)\s*\]/.exec(src.slice(j));
          if (!m) throw new SelectorSyntaxError('an index must be a quoted string, like ["key"]', j + 1);
          j += m[0].length;
        } else break;
      }
      toks.push({ kind: 'ident', text: src.slice(i, j), col });
      i = j;
    } else {
      throw new SelectorSyntaxError(`unexpected "${c}"`, col);
    }
  }
  toks.push({ kind: 'eof', text: '', col: src.length + 1 });
  return toks;
}

/**
 * Parentheses and `not` recurse; a hostile selector of a million `(` overflowed the stack and surfaced
 * as an "unexpected" error. No real selector nests near this deep.
 */
export const MAX_SELECTOR_NESTING = 100;

class Parser {
  private i = 0;
  private depth = 0;
  private peek(offset = 0): Tok {
    return this.toks[Math.min(this.i + offset, this.toks.length - 1)] as Tok;
  }
  private next(): Tok {
    const t = this.peek();
    if (t.kind !== 'eof') this.i++;
    return t;
  }
  private isWord(t: Tok, word: string): boolean {
    return t.kind === 'ident' && t.text === word;
  }
  private describe(t: Tok): string {
    return t.kind === 'eof' ? 'end of selector' : `"${t.text}"`;
  }

  constructor(
    private readonly toks: Tok[],
    private readonly src: string,
  ) {}

  parse(): SelectorNode {
    if (this.peek().kind === 'eof') throw new SelectorSyntaxError('the selector is empty', 1);
    const node = this.or();
    const t = this.peek();
    if (t.kind === 'rparen') throw new SelectorSyntaxError('unmatched ")"', t.col);
    if (t.kind !== 'eof') throw new SelectorSyntaxError(`expected "and", "or" or end of selector, found ${this.describe(t)}`, t.col);
    return node;
  }

  private or(): SelectorNode {
    let left = this.and();
    while (this.isWord(this.peek(), 'or')) {
      this.next();
      left = { kind: 'or', left, right: this.and() };
    }
    return left;
  }

  private and(): SelectorNode {
    let left = this.not();
    while (this.isWord(this.peek(), 'and')) {
      this.next();
      left = { kind: 'and', left, right: this.not() };
    }
    return left;
  }

  private not(): SelectorNode {
    const t = this.peek();
    if (this.depth >= MAX_SELECTOR_NESTING) throw new SelectorSyntaxError(`nested more than ${MAX_SELECTOR_NESTING} levels deep (parentheses and "not")`, t.col);
    this.depth++;
    try {
      return this.notInner(t);
    } finally {
      this.depth--;
    }
  }

  private notInner(t: Tok): SelectorNode {
    // `not` followed by `in`/`contains`/`matches` belongs to an operator, never here (no left side yet).
    if (this.isWord(t, 'not')) {
      this.next();
      return { kind: 'not', operand: this.not() };
    }
    if (t.kind === 'lparen') {
      this.next();
      const inner = this.or();
      const close = this.peek();
      if (close.kind !== 'rparen') throw new SelectorSyntaxError(`unmatched "(": expected ")", found ${this.describe(close)}`, t.col);
      this.next();
      return inner;
    }
    return this.match();
  }

  private operand(what: string): Tok {
    const t = this.peek();
    if (t.kind === 'ident' && KEYWORDS.has(t.text)) {
      throw new SelectorSyntaxError(`expected ${what}, found the keyword "${t.text}"`, t.col);
    }
    if (t.kind !== 'ident' && t.kind !== 'string' && t.kind !== 'number') {
      throw new SelectorSyntaxError(`expected ${what}, found ${this.describe(t)}`, t.col);
    }
    return this.next();
  }

  /** The text from token `from` to the token just read. */
  private textFrom(from: Tok): string {
    const last = this.toks[this.i - 1] as Tok;
    return this.src.slice(from.col - 1, last.col - 1 + last.text.length);
  }

  private node(op: Extract<SelectorNode, { kind: 'match' }>['op'], sel: Tok, value: Tok | undefined, start: Tok): SelectorNode {
    const raw = value === undefined ? undefined : value.kind === 'string' ? (value.value ?? '') : value.text;
    return { kind: 'match', op, path: selectorPath(sel.text), selector: sel.text, ...(raw !== undefined ? { raw } : {}), text: this.textFrom(start) };
  }

  private match(): SelectorNode {
    const left = this.operand('a selector (like value.email) or a value');
    const op = this.peek();
    if (op.kind === 'op') {
      this.requireSelector(left, op.text);
      this.next();
      const value = this.operand(`a value after "${op.text}"`);
      return this.node(op.text === '==' ? '==' : '!=', left, value, left);
    }
    let negated = false;
    if (this.isWord(op, 'not')) {
      negated = true;
      this.next();
    }
    const word = this.peek();
    if (this.isWord(word, 'in')) {
      this.next();
      const right = this.operand('a selector after "in" (like list.groups)');
      if (right.kind !== 'ident') throw new SelectorSyntaxError('the right side of "in" must be a selector (like list.groups)', right.col);
      return this.node(negated ? 'not in' : 'in', right, left, left);
    }
    if (this.isWord(word, 'contains') || this.isWord(word, 'matches')) {
      this.requireSelector(left, word.text);
      this.next();
      const value = this.operand(`a value after "${word.text}"`);
      if (word.text === 'matches' && value.kind === 'string') {
        try {
          new RegExp(value.value ?? '');
        } catch {
          throw new SelectorSyntaxError('the regular expression after "matches" does not compile', value.col);
        }
      }
      // go-bexpr's grammar turns `contains` into its `in` operator with the sides swapped (grammar.peg).
      const op = word.text === 'matches' ? (negated ? 'not matches' : 'matches') : negated ? 'not in' : 'in';
      return this.node(op, left, value, left);
    }
    if (this.isWord(word, 'is') && !negated) {
      this.requireSelector(left, 'is empty');
      this.next();
      const not = this.isWord(this.peek(), 'not');
      if (not) this.next();
      const e = this.peek();
      if (!this.isWord(e, 'empty')) throw new SelectorSyntaxError(`expected "empty" after "is", found ${this.describe(e)}`, e.col);
      this.next();
      return this.node(not ? 'is not empty' : 'is empty', left, undefined, left);
    }
    throw new SelectorSyntaxError(
      `expected an operator (==, !=, in, not in, contains, matches, is empty), found ${this.describe(word)}`,
      word.col,
    );
  }

  private requireSelector(t: Tok, op: string): void {
    if (t.kind !== 'ident') throw new SelectorSyntaxError(`the left side of "${op}" must be a selector (like value.email)`, t.col);
  }
}

/** `value.email` → [value, email]; `list["first name"]` → [list, first name]. */
function selectorPath(text: string): string[] {
  const parts: string[] = [];
  const re = /^\.?([a-zA-Z][a-zA-Z0-9_/]*)|^\[\s*(?:"((?:[^"\\]|\\.)*)"|`([^`]*)`)\s*\]/;
  let rest = text;
  while (rest !== '') {
    const m = re.exec(rest);
    if (!m) break;
    parts.push(m[1] ?? (m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : (m[3] ?? '')));
    rest = rest.slice(m[0].length);
  }
  return parts;
}

/** The parsed selector, or the first problem and its column. */
export function parseSelector(selector: string): { ast: SelectorNode } | { error: SelectorError } {
  try {
    return { ast: new Parser(tokenize(selector), selector).parse() };
  } catch (e) {
    if (e instanceof SelectorSyntaxError) return { error: { message: e.message, col: e.col } };
    throw e;
  }
}

/** Undefined when the selector parses; else the first problem and its column. */
export function checkSelector(selector: string): SelectorError | undefined {
  const r = parseSelector(selector);
  return 'error' in r ? r.error : undefined;
}
