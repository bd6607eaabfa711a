import { hrtime } from 'node:process';

/*
 * Wall-clock time in nanoseconds. ACL objects show it as RFC 3339 with nanoseconds in UTC; Variables as a
 * Unix-ns integer (docs/reference/nomad-api.md §1.2, §9). Date.now() has millisecond precision, so the
 * sub-millisecond digits come from the monotonic clock; the value never repeats or goes backwards.
 */
const baseWall = BigInt(Date.now()) * 1_000_000n;
const baseMono = hrtime.bigint();
let last = 0n;

export function nowNs(): bigint {
  let t = baseWall + (hrtime.bigint() - baseMono);
  if (t <= last) t = last + 1n;
  last = t;
  return t;
}

/** Go's time.Time JSON form (RFC3339Nano): trailing zeros of the fraction trimmed, no fraction when zero. */
export function rfc3339Nano(ns: bigint): string {
  const ms = ns / 1_000_000n;
  const iso = new Date(Number(ms)).toISOString(); // 2025-03-01T10:00:00.123Z
  const fracNs = (ns % 1_000_000_000n).toString().padStart(9, '0').replace(/0+$/, '');
  return `${iso.slice(0, 19)}${fracNs ? `.${fracNs}` : ''}Z`;
}
