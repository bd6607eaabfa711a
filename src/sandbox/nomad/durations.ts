/**
 * Go `time.Duration` text, both ways (docs/reference/nomad-api.md §1.3), ported from Go's own time package
 * (ParseDuration and Duration.String in time/format.go and time/time.go), not from converge's client
 * parser, so the two can catch each other's mistakes. Values are nanoseconds held in a JS number:
 * exact up to ~104 days, far beyond the 24h ceiling of anything Nomad stores here.
 */

/** Go's unitMap (time/format.go). */
const UNITS: Record<string, bigint> = {
  ns: 1n,
  us: 1_000n,
  'µs': 1_000n, // U+00B5 = micro symbol
  'μs': 1_000n, // U+03BC = Greek letter mu
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};

const TWO_63 = 1n << 63n;

export class DurationError extends Error {}

/**
 * Go's time.quote: printable ASCII as is (`"` and `\` escaped), every other byte of the UTF-8 text
 * as `\xNN`, so `µ` prints as `\xc2\xb5` in Nomad's error texts.
 */
function quote(text: string): string {
  let out = '"';
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (code >= 0x80 || code < 0x20) {
      for (const byte of Buffer.from(ch, 'utf8')) out += `\\x${byte.toString(16).padStart(2, '0')}`;
    } else {
      out += ch === '"' || ch === '\\' ? `\\${ch}` : ch;
    }
  }
  return `${out}"`;
}

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

/** leadingInt: the leading [0-9]*; undefined on overflow past 1<<63. */
function leadingInt(s: string): { x: bigint; rem: string } | undefined {
  let x = 0n;
  let i = 0;
  for (; i < s.length && isDigit(s[i]); i++) {
    if (x > TWO_63 / 10n) return undefined;
    x = x * 10n + BigInt(s.charCodeAt(i) - 48);
    if (x > TWO_63) return undefined;
  }
  return { x, rem: s.slice(i) };
}

/** leadingFraction: the leading [0-9]* after a dot; stops gaining precision on overflow instead of failing. */
function leadingFraction(s: string): { x: bigint; scale: number; rem: string } {
  let x = 0n;
  let scale = 1;
  let overflow = false;
  let i = 0;
  for (; i < s.length && isDigit(s[i]); i++) {
    if (overflow) continue;
    if (x > (TWO_63 - 1n) / 10n) {
      overflow = true;
      continue;
    }
    const y = x * 10n + BigInt(s.charCodeAt(i) - 48);
    if (y > TWO_63) {
      overflow = true;
      continue;
    }
    x = y;
    scale *= 10;
  }
  return { x, scale, rem: s.slice(i) };
}

/**
 * time.ParseDuration (Go's time/format.go), step for step: uint64 arithmetic as BigInt, the fraction
 * through float64 as Go does, the same overflow checks and error texts. Nanoseconds as a JS number.
 */
export function parseGoDuration(orig: string): number {
  const error = (message: string) => new DurationError(`time: ${message} ${quote(orig)}`);
  let s = orig;
  let d = 0n;
  let neg = false;
  if (s !== '' && (s[0] === '-' || s[0] === '+')) {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0;
  if (s === '') throw error('invalid duration');
  while (s !== '') {
    let f = 0n;
    let scale = 1;
    if (!(s[0] === '.' || isDigit(s[0]))) throw error('invalid duration');
    const before = s.length;
    const int = leadingInt(s);
    if (!int) throw error('invalid duration');
    let v = int.x;
    s = int.rem;
    const pre = before !== s.length;
    let post = false;
    if (s !== '' && s[0] === '.') {
      s = s.slice(1);
      const length = s.length;
      ({ x: f, scale, rem: s } = leadingFraction(s));
      post = length !== s.length;
    }
    if (!pre && !post) throw error('invalid duration');
    let i = 0;
    while (i < s.length && !(s[i] === '.' || isDigit(s[i]))) i++;
    if (i === 0) throw error('missing unit in duration');
    const u = s.slice(0, i);
    s = s.slice(i);
    const unit = UNITS[u];
    if (unit === undefined) throw error(`unknown unit ${quote(u)} in duration`);
    if (v > TWO_63 / unit) throw error('invalid duration');
    v *= unit;
    if (f > 0n) {
      // float64 is needed to be nanosecond accurate for fractions of hours (Go's comment).
      v += BigInt(Math.trunc(Number(f) * (Number(unit) / scale)));
      if (v > TWO_63) throw error('invalid duration');
    }
    d += v;
    if (d > TWO_63) throw error('invalid duration');
  }
  if (neg) return -Number(d);
  if (d > TWO_63 - 1n) throw error('invalid duration');
  return Number(d);
}

function frac(v: bigint, prec: number): [string, bigint] {
  const p = 10n ** BigInt(prec);
  const digits = (v % p).toString().padStart(prec, '0').replace(/0+$/, '');
  return [digits === '' ? '' : `.${digits}`, v / p];
}

/** time.Duration.String(): `1h0m0s`, `1m30s`, `1.5s`, `250ms`, `0s`. */
export function formatGoDuration(ns: number): string {
  if (ns === 0) return '0s';
  const sign = ns < 0 ? '-' : '';
  const u = BigInt(Math.abs(Math.trunc(ns)));
  if (u < 1_000_000_000n) {
    if (u < 1000n) return `${sign}${u}ns`;
    const [prec, unit] = u < 1_000_000n ? [3, 'µs'] : [6, 'ms'];
    const [f, i] = frac(u, prec);
    return `${sign}${i}${f}${unit}`;
  }
  const [f, secs] = frac(u, 9);
  let out = `${secs % 60n}${f}s`;
  const mins = secs / 60n;
  if (mins > 0n) {
    out = `${mins % 60n}m${out}`;
    const hours = mins / 60n;
    if (hours > 0n) out = `${hours}h${out}`;
  }
  return sign + out;
}

/** How Nomad's custom MarshalJSON writes a duration: Go text, but zero is `""` (docs/reference/nomad-api.md §1.3). */
export const durationField = (ns: number): string => (ns === 0 ? '' : formatGoDuration(ns));
