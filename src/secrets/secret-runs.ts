/*
 * Partial echoes of a secret: a server may cut it (70 % of it in a 500 body, the start of it in a page
 * title), wrap it over lines, upper-case it, or escape every character (`&#45;`, `&#x2d;`, `\u002d`,
 * `%2D`). No list of whole forms catches those. This matcher decodes the common escapes of the text,
 * drops whitespace and folds case, then masks every run of RUN or more characters that also occurs in
 * a secret (or in its hex form), mapping the run back to the text as it was written.
 */

/** The shortest run of a secret masked on its own: long enough not to hit ordinary words by chance. */
export const RUN = 8;

/** Text decoded for matching: `norm[i]` came from `text.slice(start[i], end[i])`. */
interface Decoded {
  norm: string;
  start: number[];
  end: number[];
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const ESCAPE = /&#(\d{1,7});|&#x([0-9a-f]{1,6});|&(amp|lt|gt|quot|apos);|\\u([0-9a-f]{4})|\\(["\\/])|\\[nrt]|%([0-9a-f]{2})|\s/giy;

/** Decodes HTML entities, JSON `\uXXXX` and `\"`-style escapes and %XX, drops whitespace, folds case. */
function decode(text: string): Decoded {
  const chars: string[] = [];
  const start: number[] = [];
  const end: number[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    // Fast path: a character that starts no escape and is not whitespace.
    if (c !== 38 && c !== 92 && c !== 37 && c > 32 && c !== 0xa0) {
      chars.push(text[i] as string);
      start.push(i);
      end.push(i + 1);
      i++;
      continue;
    }
    ESCAPE.lastIndex = i;
    const m = ESCAPE.exec(text);
    if (m === null) {
      chars.push(text[i] as string);
      start.push(i);
      end.push(i + 1);
      i++;
      continue;
    }
    let ch: string | undefined;
    if (m[1] !== undefined) ch = safeChar(Number(m[1]));
    else if (m[2] !== undefined) ch = safeChar(parseInt(m[2], 16));
    else if (m[3] !== undefined) ch = NAMED[m[3].toLowerCase()];
    else if (m[4] !== undefined) ch = String.fromCharCode(parseInt(m[4], 16));
    else if (m[5] !== undefined) ch = m[5];
    else if (m[6] !== undefined) {
      const b = parseInt(m[6], 16);
      ch = b < 0x80 ? String.fromCharCode(b) : undefined;
    }
    // Whitespace, written or escaped, is dropped: a secret wrapped over lines still matches.
    if (ch !== undefined && !/\s/.test(ch)) {
      chars.push(ch);
      start.push(i);
      end.push(i + m[0].length);
    } else if (ch === undefined && m[6] !== undefined) {
      chars.push(m[0]);
      start.push(i);
      end.push(i + m[0].length);
    }
    i += m[0].length;
  }
  return { norm: chars.join('').toLowerCase(), start, end };
}

function safeChar(code: number): string | undefined {
  return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : undefined;
}

/** A secret as the matcher compares it: whitespace dropped, case folded. */
export function normaliseSecret(value: string): string {
  return value.replace(/\s+/g, '').toLowerCase();
}

/*
 * Speed: the redactor wraps every output, and a run's output may be megabytes (a plan over 10 000
 * workspaces prints 4.5 MB of text, 22 MB of JSON). Most text holds no secret, so a first pass answers
 * "is there a run?" in one tight loop: escapes are decoded by one native replace, and only when the text
 * holds a character that starts one (`&`, `\`, `%`); whitespace is skipped in the loop (a replace of every
 * whitespace run cost more than all the rest); every window of RUN characters is compared by a rolling hash
 * with the secrets' windows, and a hash that matches is checked against the windows themselves, so that
 * with thousands of secrets a chance collision does not send the whole text down the slow path. Only text
 * with a real window is decoded again with offsets and matched exactly.
 */
const B = 31;
const B_TOP = Array.from({ length: RUN - 1 }).reduce<number>((h) => Math.imul(h, B), 1);

function windowHash(s: string, from: number): number {
  let h = 0;
  for (let k = 0; k < RUN; k++) h = (Math.imul(h, B) + s.charCodeAt(from + k)) | 0;
  return h;
}

/** A bit per slot of the low FILTER_BITS bits of a window's hash: a first, cheap look before the exact set. */
const FILTER_BITS = 20;
const FILTER_MASK = (1 << FILTER_BITS) - 1;

/** The characters JavaScript's `\s` matches (what `normaliseSecret` drops from a secret). */
function isSpace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 0xa0) return false;
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/** Some window of RUN characters of `flat`, whitespace skipped, is a secret's window. */
function anyWindowIn(flat: string, filter: Uint8Array, hashes: ReadonlySet<number>, windows: ReadonlyMap<string, unknown>): boolean {
  const ring = new Uint16Array(RUN);
  let n = 0;
  let h = 0;
  for (let i = 0; i < flat.length; i++) {
    const c = flat.charCodeAt(i);
    if (isSpace(c)) continue;
    const slot = n % RUN;
    if (n >= RUN) h = (h - Math.imul(ring[slot] as number, B_TOP)) | 0;
    h = (Math.imul(h, B) + c) | 0;
    ring[slot] = c;
    n++;
    if (n >= RUN && filter[h & FILTER_MASK] === 1 && hashes.has(h)) {
      let w = '';
      for (let k = 0; k < RUN; k++) w += String.fromCharCode(ring[(n + k) % RUN] as number);
      if (windows.has(w)) return true;
    }
  }
  return false;
}

const ESCAPE_ALL = new RegExp(ESCAPE.source.replace(/\|\\s$/, ''), 'gi');

/** `decode(text).norm` but for its whitespace (skipped by `anyWindowIn`), without offsets, by one native replace. */
function flatten(text: string): string {
  if (!/[&\\%]/.test(text)) return text.toLowerCase();
  return text
    .replace(ESCAPE_ALL, (m: string, dec?: string, hex?: string, named?: string, u?: string, quoted?: string, pct?: string) => {
      let ch: string | undefined;
      if (dec !== undefined) ch = safeChar(Number(dec));
      else if (hex !== undefined) ch = safeChar(parseInt(hex, 16));
      else if (named !== undefined) ch = NAMED[named.toLowerCase()];
      else if (u !== undefined) ch = String.fromCharCode(parseInt(u, 16));
      else if (quoted !== undefined) ch = quoted;
      else if (pct !== undefined) ch = parseInt(pct, 16) < 0x80 ? String.fromCharCode(parseInt(pct, 16)) : m;
      return ch === undefined || /\s/.test(ch) ? '' : ch;
    })
    .toLowerCase();
}

/** The runs of RUN characters of every registered secret, and where each occurs in which secret. */
export class SecretRuns {
  private readonly secrets: string[] = [];
  private readonly windows = new Map<string, { s: number; at: number }[]>();
  private readonly hashes = new Set<number>();
  private readonly filter = new Uint8Array(1 << FILTER_BITS);

  add(value: string): void {
    // A PEM key's armour lines (`-----BEGIN PRIVATE KEY-----`) are public words, not the secret:
    // left in, "private key" in any message would be masked.
    const body = value.replace(/-----(?:BEGIN|END)[^-\n]*-----/g, ' ');
    for (const form of [normaliseSecret(body), Buffer.from(value, 'utf8').toString('hex')]) {
      if (form.length < RUN || this.secrets.includes(form)) continue;
      const s = this.secrets.push(form) - 1;
      for (let at = 0; at + RUN <= form.length; at++) {
        const key = form.slice(at, at + RUN);
        const h = windowHash(form, at);
        this.hashes.add(h);
        this.filter[h & FILTER_MASK] = 1;
        const list = this.windows.get(key);
        if (list) list.push({ s, at });
        else this.windows.set(key, [{ s, at }]);
      }
    }
  }

  get empty(): boolean {
    return this.secrets.length === 0;
  }

  /** `text` with every run of RUN or more characters of a secret (after decoding) replaced by `***`. */
  mask(text: string): string {
    if (this.secrets.length === 0 || text.length < RUN) return text;
    if (!anyWindowIn(flatten(text), this.filter, this.hashes, this.windows)) return text;
    const { norm, start, end } = decode(text);
    const ranges: [number, number][] = [];
    for (let i = 0; i + RUN <= norm.length; ) {
      const hits = this.windows.get(norm.slice(i, i + RUN));
      if (hits === undefined) {
        i++;
        continue;
      }
      let best = RUN;
      for (const { s, at } of hits) {
        const secret = this.secrets[s] as string;
        let k = RUN;
        while (i + k < norm.length && at + k < secret.length && norm[i + k] === secret[at + k]) k++;
        if (k > best) best = k;
      }
      ranges.push([start[i] as number, end[i + best - 1] as number]);
      i += best;
    }
    if (ranges.length === 0) return text;
    let out = '';
    let from = 0;
    for (const [a, b] of ranges) {
      if (a < from) {
        from = Math.max(from, b);
        continue;
      }
      out += text.slice(from, a) + '***';
      from = b;
    }
    return out + text.slice(from);
  }
}
