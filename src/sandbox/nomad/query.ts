import { parseGoDuration } from './durations.js';
import { HttpError, badRequest } from './errors.js';
import type { RegionState } from './region-state.js';

/** Query options of a read (docs/reference/nomad-api.md §7), parsed in Nomad's order: wait, index, stale. */
export interface QueryOptions {
  minIndex: number;
  /** Blocking time in ms, already defaulted and capped. */
  waitMs: number;
  stale: boolean;
}

/** Nomad's default and ceiling for `wait` (nomad/structs: DefaultBlockingRPCQueryTime / MaxBlockingRPCQueryTime). */
export const MAX_WAIT_MS = 5 * 60_000;
/** blockingRPC adds up to wait/16 of jitter (structs.JitterFraction). */
const JITTER_FRACTION = 16;

const GO_TRUE = ['1', 't', 'T', 'TRUE', 'true', 'True'];
const GO_FALSE = ['0', 'f', 'F', 'FALSE', 'false', 'False'];

/** strconv.ParseBool. */
export function goParseBool(s: string): boolean | undefined {
  if (GO_TRUE.includes(s)) return true;
  if (GO_FALSE.includes(s)) return false;
  return undefined;
}

export function parseQueryOptions(q: URLSearchParams): QueryOptions {
  let waitMs = 0;
  const wait = q.get('wait');
  if (wait) {
    try {
      waitMs = parseGoDuration(wait) / 1e6;
    } catch {
      throw badRequest('Invalid wait time');
    }
  }
  let minIndex = 0;
  const index = q.get('index');
  if (index) {
    if (!/^\d+$/.test(index) || BigInt(index) > 18446744073709551615n) throw badRequest('Invalid index');
    minIndex = Number(index);
  }
  let stale = false;
  if (q.has('stale')) {
    const v = q.get('stale') ?? '';
    const parsed = v === '' ? true : goParseBool(v);
    if (parsed === undefined) throw badRequest('Expect `true` or `false` for `stale` query string parameter');
    stale = parsed;
  }
  // A zero or negative wait means the default; anything longer is capped (docs/reference/nomad-api.md §7).
  if (waitMs <= 0 || waitMs > MAX_WAIT_MS) waitMs = MAX_WAIT_MS;
  return { minIndex, waitMs, stale };
}

/** `?pretty` (present, or a Go true value) indents the body (docs/reference/nomad-api.md §6). */
export function wantsPretty(q: URLSearchParams): boolean {
  if (!q.has('pretty')) return false;
  const v = q.get('pretty') ?? '';
  return v === '' || goParseBool(v) === true;
}

export interface QueryResult<T> {
  index: number;
  value: T;
}

/**
 * Nomad's blockingRPC: with `index` > 0, re-run the query on every change of the region's state until the
 * result's index exceeds it or `wait` (+ jitter) ends, then answer with whatever the last run saw.
 */
export async function blockingQuery<T>(
  region: RegionState,
  opts: QueryOptions,
  signal: AbortSignal,
  jitter: () => number,
  run: () => QueryResult<T>,
): Promise<QueryResult<T>> {
  let result = run();
  if (opts.minIndex === 0) return result;
  const deadline = region.clock.now() + opts.waitMs + jitter() * (opts.waitMs / JITTER_FRACTION);
  while (result.index <= opts.minIndex && !signal.aborted && !region.closed) {
    const left = deadline - region.clock.now();
    if (left <= 0) break;
    await region.waitForChange(left, signal);
    result = run();
  }
  if (region.closed) throw new HttpError(503, 'sandbox stopping');
  return result;
}

/** Meta headers every read carries (docs/reference/nomad-api.md §7); the sandbox's servers are always their region's leader. */
export function readHeaders(index: number, extra: Record<string, string> = {}): Record<string, string> {
  return { 'X-Nomad-Index': String(index), 'X-Nomad-KnownLeader': 'true', 'X-Nomad-LastContact': '0', ...extra };
}

/** Writes carry only X-Nomad-Index (docs/reference/nomad-api.md §3.1). */
export const writeHeaders = (index: number): Record<string, string> => ({ 'X-Nomad-Index': String(index) });
