/**
 * Go `time.Duration` text, both ways (reference nomad-api.md §1.3). Values are nanoseconds held in a JS number:
 * exact up to ~104 days, far beyond the 24h ceiling of anything Nomad stores here.
 */

const UNITS: Record<string, number> = {
  ns: 1,
  us: 1e3,
  'µs': 1e3, // U+00B5 micro sign
  'μs': 1e3, // U+03BC Greek mu
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  h: 3600e9,
};

export class DurationError extends Error {}

/** Go's strconv.Quote is close enough to JSON string quoting for the texts Go prints here. */
const quote = (s: string): string => JSON.stringify(s);

/** time.ParseDuration, with its exact error texts (`time: invalid duration ""`, missing/unknown unit). */
export function parseGoDuration(input: string): number {
  const invalid = () => new DurationError(`time: invalid duration ${quote(input)}`);
  let s = input;
  let neg = false;
  if (s.startsWith('-') || s.startsWith('+')) {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0;
  if (s === '') throw invalid();
  let total = 0;
  while (s !== '') {
    const m = /^(\d*)(?:\.(\d*))?/.exec(s);
    const intPart = m?.[1] ?? '';
    const fracPart = m?.[2];
    const hadDot = fracPart !== undefined;
    if (intPart === '' && (fracPart === undefined || fracPart === '')) throw invalid();
    s = s.slice((m?.[0] ?? '').length);
    const um = /^[^0-9.]*/.exec(s);
    const unitText = um?.[0] ?? '';
    if (unitText === '') throw new DurationError(`time: missing unit in duration ${quote(input)}`);
    const unit = UNITS[unitText];
    if (unit === undefined) throw new DurationError(`time: unknown unit ${quote(unitText)} in duration ${quote(input)}`);
    s = s.slice(unitText.length);
    let v = Number(intPart === '' ? '0' : intPart) * unit;
    if (hadDot && fracPart) v += Math.trunc((Number(fracPart) / 10 ** fracPart.length) * unit);
    total += v;
    if (!Number.isFinite(total) || total > 9.223372036854776e18) throw invalid();
  }
  return neg ? -total : total;
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

/** How Nomad's custom MarshalJSON writes a duration: Go text, but zero is `""` (reference §1.3). */
export const durationField = (ns: number): string => (ns === 0 ? '' : formatGoDuration(ns));
