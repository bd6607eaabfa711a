/*
 * Evaluating a binding rule's selector for a login, the sandbox's own reading of go-bexpr (evaluate.go,
 * grammar/ast.go) as Nomad calls it (lib/auth/binder.go doesSelectorMatch): no shared code with converge's
 * offline evaluator, so a misreading in one shows against the other. Data: { value: map of strings, list:
 * map of string lists }. Returns false for a selector that does not parse or whose evaluation errs.
 */

type Data = { value: Record<string, string>; list: Record<string, string[]> };
type Found = { missing: true } | { missing: false; v: unknown };

class Bad extends Error {}

export function selectorMatches(selector: string, data: Data): boolean {
  if (selector === '') return true;
  try {
    const p = new P(selector, data);
    const r = p.or();
    p.ws();
    if (p.i < selector.length) return false;
    return r;
  } catch {
    return false;
  }
}

class P {
  i = 0;
  constructor(
    readonly s: string,
    readonly d: Data,
  ) {}

  ws(): void {
    while (/\s/.test(this.s[this.i] ?? '')) this.i++;
  }
  word(w: string): boolean {
    this.ws();
    if (!this.s.startsWith(w, this.i)) return false;
    const next = this.s[this.i + w.length] ?? ' ';
    if (/[A-Za-z0-9_/]/.test(next) && /[a-z]$/.test(w)) return false;
    this.i += w.length;
    return true;
  }
  // Errors propagate through and/or/not; evaluation still parses the right side first, so a syntax error
  // anywhere refuses the selector as go-bexpr's parse-then-evaluate does.
  or(): boolean {
    let r: boolean | Error = this.guard(() => this.and());
    while (this.word('or')) {
      const right = this.guard(() => this.and());
      r = r instanceof Error ? r : r ? true : right;
    }
    return this.unguard(r);
  }
  and(): boolean {
    let r: boolean | Error = this.guard(() => this.not());
    while (this.word('and')) {
      const right = this.guard(() => this.not());
      r = r instanceof Error ? r : !r ? false : right;
    }
    return this.unguard(r);
  }
  not(): boolean {
    if (this.word('not')) return !this.not();
    this.ws();
    if (this.s[this.i] === '(') {
      this.i++;
      const r = this.guard(() => this.or());
      this.ws();
      if (this.s[this.i] !== ')') throw new SyntaxError('expected )');
      this.i++;
      return this.unguard(r);
    }
    return this.match();
  }
  /** An evaluation error is kept as a value so the rest still parses; a syntax error stops at once. */
  guard(f: () => boolean): boolean | Error {
    try {
      return f();
    } catch (e) {
      if (e instanceof Bad) return e;
      throw e;
    }
  }
  unguard(r: boolean | Error): boolean {
    if (r instanceof Error) throw r;
    return r;
  }
  path(): string[] | undefined {
    this.ws();
    const m = /^[a-zA-Z][a-zA-Z0-9_/]*/.exec(this.s.slice(this.i));
    if (!m) return undefined;
    this.i += m[0].length;
    const out = [m[0]];
    for (;;) {
      if (this.s[this.i] === '.') {
        const n = /^\.([a-zA-Z][a-zA-Z0-9_/]*)/.exec(this.s.slice(this.i));
        if (!n) throw new SyntaxError('bad path');
        out.push(n[1] as string);
        this.i += n[0].length;
      } else if (this.s[this.i] === '[') {
        const n = /^\[\s*(?:"((?:[^"\\]|\\.)*)"|`([^`]*)`)\s*\]/.exec(this.s.slice(this.i));
        if (!n) throw new SyntaxError('bad index');
        out.push(n[1] !== undefined ? n[1].replace(/\\(.)/g, '$1') : (n[2] as string));
        this.i += n[0].length;
      } else return out;
    }
  }
  value(): string {
    this.ws();
    const rest = this.s.slice(this.i);
    let m = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?/.exec(rest);
    if (m) {
      this.i += m[0].length;
      return m[0];
    }
    m = /^"((?:[^"\\]|\\.)*)"/.exec(rest);
    if (m) {
      this.i += m[0].length;
      return (m[1] as string).replace(/\\(.)/g, (_x, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : c));
    }
    m = /^`([^`]*)`/.exec(rest);
    if (m) {
      this.i += m[0].length;
      return m[1] as string;
    }
    const p = this.path();
    if (p) return p.join('.');
    throw new SyntaxError('expected a value');
  }
  lookup(path: string[]): Found {
    const [field, key, ...more] = path;
    const top: Record<string, unknown> | undefined = field === 'value' ? this.d.value : field === 'list' ? this.d.list : undefined;
    if (!top) throw new Bad('unknown field');
    if (key === undefined) return { missing: false, v: top };
    if (!(key in top)) {
      if (more.length === 0) return { missing: true };
      throw new Bad('not found');
    }
    let v: unknown = top[key];
    for (const k of more) {
      if (Array.isArray(v) && /^\d+$/.test(k) && Number(k) < v.length) v = v[Number(k)];
      else throw new Bad('not found');
    }
    return { missing: false, v };
  }
  match(): boolean {
    this.ws();
    const start = this.i;
    // `value in selector` form: a literal (or a path) followed by [not] in.
    const lhsIsLiteral = /^["`\-0-9]/.test(this.s.slice(this.i));
    const lhsPath = lhsIsLiteral ? undefined : this.path();
    if (!lhsIsLiteral && !lhsPath) throw new SyntaxError('expected a selector');
    const save = this.i;
    if (lhsPath) {
      this.ws();
      if (this.s.startsWith('==', this.i) || this.s.startsWith('!=', this.i)) {
        const eq = this.s.startsWith('==', this.i);
        this.i += 2;
        return this.apply(lhsPath, eq ? 'eq' : 'ne', this.value());
      }
      if (this.word('is')) {
        const neg = this.word('not');
        if (!this.word('empty')) throw new SyntaxError('expected empty');
        return this.apply(lhsPath, neg ? 'notempty' : 'empty', '');
      }
      const neg = this.word('not');
      if (this.word('contains')) return this.apply(lhsPath, neg ? 'notin' : 'in', this.value());
      if (this.word('matches')) return this.apply(lhsPath, neg ? 'notmatches' : 'matches', this.value());
      this.i = save;
    }
    this.i = start;
    const needle = this.value();
    const neg = this.word('not');
    if (!this.word('in')) throw new SyntaxError('expected an operator');
    const hay = this.path();
    if (!hay) throw new SyntaxError('expected a selector after in');
    return this.apply(hay, neg ? 'notin' : 'in', needle);
  }
  apply(path: string[], op: string, raw: string): boolean {
    const f = this.lookup(path);
    if (f.missing) return op === 'ne' || op === 'notin' || op === 'empty' || op === 'notmatches';
    const v = f.v;
    const isStr = typeof v === 'string';
    switch (op) {
      case 'eq':
      case 'ne':
        if (!isStr) throw new Bad('not comparable');
        return (v === raw) === (op === 'eq');
      case 'in':
      case 'notin': {
        const has = isStr ? v.includes(raw) : Array.isArray(v) ? v.includes(raw) : Object.prototype.hasOwnProperty.call(v, raw);
        return has === (op === 'in');
      }
      case 'empty':
      case 'notempty': {
        const n = isStr || Array.isArray(v) ? (v as string | unknown[]).length : Object.keys(v as object).length;
        return (n === 0) === (op === 'empty');
      }
      default: {
        if (!isStr) throw new Bad('not a string');
        return new RegExp(raw).test(v) === (op === 'matches');
      }
    }
  }
}
