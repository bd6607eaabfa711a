import { badRequest } from './errors.js';

/**
 * Request bodies, read the way Nomad's `decodeBody` reads them (docs/reference/nomad-api.md §1.3): Go's
 * encoding/json Decoder takes the first JSON value and ignores what follows, an empty body is
 * `Request body is empty`, syntax errors carry Go's scanner texts, keys match struct fields
 * case-insensitively (the last matching key wins), unknown keys are ignored, and a type mismatch
 * gives `json: cannot unmarshal X into Go struct field S.F of type T` (the first one, after decoding the rest).
 */
export class JObject {
  constructor(readonly entries: ReadonlyArray<readonly [string, JVal]>) {}

  /** The value for a Go struct field: the last key equal to the name under case folding. */
  get(name: string): JVal | undefined {
    const want = name.toLowerCase();
    let found: JVal | undefined;
    for (const [k, v] of this.entries) if (k.toLowerCase() === want) found = v;
    return found;
  }
}

export type JVal = null | boolean | number | string | JVal[] | JObject;

class Syntax extends Error {}

const quoteChar = (c: string): string => (c === "'" ? `'\\''` : c === '"' ? `'"'` : `'${JSON.stringify(c).slice(1, -1)}'`);

/** Parse the first JSON value of a body. Throws HttpError 400 with Go's decoder text. */
export function decodeBody(raw: Buffer | string): JVal {
  const text = typeof raw === 'string' ? raw : raw.toString('utf8');
  if (text.length === 0) throw badRequest('Request body is empty');
  let i = 0;
  const eof = () => new Syntax('unexpected EOF');
  const bad = (ctx: string) => new Syntax(`invalid character ${quoteChar(text[i] ?? '')} ${ctx}`);
  const ws = () => {
    while (i < text.length && ' \t\r\n'.includes(text[i] ?? '')) i++;
  };
  const literal = (word: string, value: JVal): JVal => {
    for (let k = 0; k < word.length; k++, i++) {
      if (i >= text.length) throw eof();
      if (text[i] !== word[k]) throw bad(`in literal ${word} (expecting ${quoteChar(word[k] ?? '')})`);
    }
    return value;
  };
  const string = (): string => {
    i++; // opening quote
    let out = '';
    for (;;) {
      if (i >= text.length) throw eof();
      const c = text[i] ?? '';
      if (c === '"') {
        i++;
        return out;
      }
      if (c < ' ') throw bad('in string literal');
      if (c === '\\') {
        i++;
        if (i >= text.length) throw eof();
        const e = text[i] ?? '';
        const simple: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
        if (simple[e] !== undefined) {
          out += simple[e];
          i++;
        } else if (e === 'u') {
          const hex = text.slice(i + 1, i + 5);
          if (hex.length < 4) throw eof();
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
            i += 1 + (/^[0-9a-fA-F]*/.exec(hex)?.[0].length ?? 0);
            throw bad('in \\u hexadecimal character escape');
          }
          out += String.fromCharCode(parseInt(hex, 16));
          i += 5;
        } else throw bad('in string escape code');
        continue;
      }
      out += c;
      i++;
    }
  };
  const number = (): number => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!m) {
      i++; // past '-'
      if (i >= text.length) throw eof();
      throw bad('in numeric literal');
    }
    i += m[0].length;
    return Number(m[0]);
  };
  const value = (): JVal => {
    ws();
    if (i >= text.length) throw eof();
    const c = text[i];
    if (c === '{') return object();
    if (c === '[') return array();
    if (c === '"') return string();
    if (c === 't') return literal('true', true);
    if (c === 'f') return literal('false', false);
    if (c === 'n') return literal('null', null);
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return number();
    throw bad('looking for beginning of value');
  };
  const object = (): JObject => {
    i++;
    const entries: Array<[string, JVal]> = [];
    ws();
    if (text[i] === '}') {
      i++;
      return new JObject(entries);
    }
    for (;;) {
      ws();
      if (i >= text.length) throw eof();
      if (text[i] !== '"') throw bad('looking for beginning of object key string');
      const key = string();
      ws();
      if (i >= text.length) throw eof();
      if (text[i] !== ':') throw bad('after object key');
      i++;
      entries.push([key, value()]);
      ws();
      if (i >= text.length) throw eof();
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === '}') {
        i++;
        return new JObject(entries);
      }
      throw bad('after object key:value pair');
    }
  };
  const array = (): JVal[] => {
    i++;
    const out: JVal[] = [];
    ws();
    if (text[i] === ']') {
      i++;
      return out;
    }
    for (;;) {
      out.push(value());
      ws();
      if (i >= text.length) throw eof();
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === ']') {
        i++;
        return out;
      }
      throw bad('after array element');
    }
  };
  ws();
  if (i >= text.length) throw badRequest('EOF');
  try {
    return value();
  } catch (e) {
    if (e instanceof Syntax) throw badRequest(e.message);
    throw e;
  }
}

export const jsonKind = (v: JVal): string =>
  v === null ? 'null' : Array.isArray(v) ? 'array' : v instanceof JObject ? 'object' : typeof v === 'boolean' ? 'bool' : typeof v;

/**
 * Reads typed fields out of a decoded body like Go does: `null` leaves the zero value, a mismatch is
 * recorded (first one wins) and decoding goes on. Call `finish()` to throw the 400.
 */
export class GoFields {
  private firstError: string | undefined;

  constructor(private readonly structName: string) {}

  /** The top-level body must be an object (`null` decodes to the zero struct, as in Go). */
  root(v: JVal): JObject {
    if (v === null) return new JObject([]);
    if (v instanceof JObject) return v;
    throw badRequest(`json: cannot unmarshal ${jsonKind(v)} into Go value of type structs.${this.structName}`);
  }

  private mismatch(v: JVal, path: string, goType: string): void {
    this.firstError ??= `json: cannot unmarshal ${jsonKind(v)} into Go struct field ${this.structName}.${path} of type ${goType}`;
  }

  fail(text: string): void {
    this.firstError ??= text;
  }

  string(o: JObject, name: string, path = name): string {
    const v = o.get(name);
    if (v === undefined || v === null) return '';
    if (typeof v === 'string') return v;
    this.mismatch(v, path, 'string');
    return '';
  }

  bool(o: JObject, name: string, path = name): boolean {
    const v = o.get(name);
    if (v === undefined || v === null) return false;
    if (typeof v === 'boolean') return v;
    this.mismatch(v, path, 'bool');
    return false;
  }

  strings(o: JObject, name: string, path = name): string[] | null {
    const v = o.get(name);
    if (v === undefined || v === null) return null;
    if (!Array.isArray(v)) {
      this.mismatch(v, path, '[]string');
      return null;
    }
    return v.map((x) => {
      if (x === null) return '';
      if (typeof x === 'string') return x;
      this.mismatch(x, path, 'string');
      return '';
    });
  }

  stringMap(o: JObject, name: string, path = name): Record<string, string> | null {
    const v = o.get(name);
    if (v === undefined || v === null) return null;
    if (!(v instanceof JObject)) {
      this.mismatch(v, path, 'map[string]string');
      return null;
    }
    const out: Record<string, string> = {};
    for (const [k, x] of v.entries) {
      if (x === null) out[k] = '';
      else if (typeof x === 'string') out[k] = x;
      else this.mismatch(x, path, 'string');
    }
    return out;
  }

  object(o: JObject, name: string, goType: string, path = name): JObject | null {
    const v = o.get(name);
    if (v === undefined || v === null) return null;
    if (v instanceof JObject) return v;
    this.mismatch(v, path, goType);
    return null;
  }

  finish(): void {
    if (this.firstError !== undefined) throw badRequest(this.firstError);
  }
}
