/**
 * Go `time.Duration` text, as Nomad reads and writes it (docs/reference/nomad-api.md §1.3: requests go
 * through `time.ParseDuration`, responses are `Duration.String()` such as `1h0m0s`).
 * Values are nanoseconds as JS numbers: exact up to 2^53 ns (about 104 days), far above any TTL.
 */

const UNITS: Record<string, number> = {
  ns: 1,
  us: 1e3,
  'µs': 1e3, // U+00B5 micro sign
  'μs': 1e3, // U+03BC greek mu
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  h: 3600e9,
};

/** Go's limit: a Duration is an int64 of nanoseconds. */
const MAX_NS = 9223372036854775807n;

export type DurationParse = { ok: true; ns: number } | { ok: false; error: string };

/** Like Go's `time.ParseDuration`, with a reason when the text is not a duration. */
export function parseGoDurationDetailed(text: string): DurationParse {
  let s = text;
  let neg = false;
  if (s.startsWith('-') || s.startsWith('+')) {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  // Go: "0" alone needs no unit; any other number does.
  if (s === '0') return { ok: true, ns: 0 };
  if (s === '') return { ok: false, error: `"${text}" is empty` };
  let total = 0n;
  let i = 0;
  while (i < s.length) {
    const m = /^(\d*)(?:\.(\d*))?/.exec(s.slice(i));
    const intPart = m?.[1] ?? '';
    const fracPart = m?.[2];
    if (intPart === '' && (fracPart === undefined || fracPart === '')) {
      return { ok: false, error: `"${text}": expected a number at "${s.slice(i)}"` };
    }
    i += m?.[0].length ?? 0;
    const u = /^[^\d.]+/.exec(s.slice(i))?.[0] ?? '';
    if (u === '') return { ok: false, error: `"${text}": missing unit after ${intPart}${fracPart !== undefined ? '.' + fracPart : ''}` };
    const unit = UNITS[u];
    if (unit === undefined) return { ok: false, error: `"${text}": unknown unit "${u}" (use h, m, s, ms, us or ns)` };
    i += u.length;
    const unitN = BigInt(unit);
    let v = BigInt(intPart === '' ? '0' : intPart) * unitN;
    if (fracPart !== undefined && fracPart !== '') {
      // Go scales the fraction in floating point and truncates.
      v += BigInt(Math.trunc(Number('0.' + fracPart) * unit));
    }
    total += v;
    if (total > MAX_NS) return { ok: false, error: `"${text}" is out of range` };
  }
  const ns = Number(total);
  return { ok: true, ns: neg ? -ns : ns };
}

/** Nanoseconds, or undefined when `text` is not Go duration syntax (`1h30m`, `90s`, `1.5h`, `300ms`). */
export function parseGoDuration(text: string): number | undefined {
  const r = parseGoDurationDetailed(text);
  return r.ok ? r.ns : undefined;
}

/** Prints `prec` decimal digits of `v` as Go's fmtFrac does: trailing zeros (and a bare dot) dropped. */
function withFraction(v: number, prec: number): string {
  const scale = 10 ** prec;
  const whole = Math.floor(v / scale);
  const frac = v % scale;
  if (frac === 0) return String(whole);
  return `${whole}.${String(frac).padStart(prec, '0').replace(/0+$/, '')}`;
}

/** Go's `Duration.String()`: `1h0m0s`, `1m30s`, `1.5s`, `500ms`, `0s`. */
export function formatGoDuration(ns: number): string {
  let u = Math.trunc(Math.abs(ns));
  const sign = ns < 0 ? '-' : '';
  if (u === 0) return '0s';
  if (u < 1e9) {
    if (u < 1e3) return `${sign}${u}ns`;
    if (u < 1e6) return `${sign}${withFraction(u, 3)}µs`;
    return `${sign}${withFraction(u, 6)}ms`;
  }
  const fracNs = u % 1e9;
  u = Math.floor(u / 1e9);
  let out = `${u % 60}${fracNs === 0 ? '' : withFraction(fracNs, 9).slice(1)}s`;
  u = Math.floor(u / 60);
  if (u > 0) {
    out = `${u % 60}m${out}`;
    u = Math.floor(u / 60);
    if (u > 0) out = `${u}h${out}`;
  }
  return sign + out;
}
