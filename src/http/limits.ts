import { ConvergeError } from '../diagnostics/errors.js';
import { formatDuration } from '../model/duration-text.js';

/**
 * Bounds on one request, so that no server can hold converge or its memory for long:
 * - `maxBodyBytes`: the largest response body read (a larger one is cut off, never read whole);
 * - `deadlineMs`: the longest one attempt may take, headers and body together (undici's `bodyTimeout`
 *   only bounds the gap between two chunks, so a body trickling one byte every 20 s never hits it);
 * - `retryBudgetMs`: the longest a request may spend waiting to be retried (Retry-After, backoff,
 *   the host's gate), all attempts together; a wait that would end past it ends the request instead.
 */
export interface HttpLimits {
  maxBodyBytes: number;
  deadlineMs: number;
  retryBudgetMs: number;
}

/**
 * Far above any answer of either API converge reads: a page of 100 workspaces with their current runs
 * is a few hundred KB, a Nomad Variables chunk under 64 KiB (docs/reference/nomad-api.md, Variables).
 */
export const HTTP_LIMIT_DEFAULTS: HttpLimits = {
  maxBodyBytes: 8 * 1024 * 1024,
  deadlineMs: 120_000,
  retryBudgetMs: 120_000,
};

/** The environment variables that change the limits (documented in the README). */
export const HTTP_LIMIT_SETTINGS = {
  maxBodyBytes: 'CONVERGE_HTTP_MAX_BODY',
  deadlineMs: 'CONVERGE_HTTP_DEADLINE',
  retryBudgetMs: 'CONVERGE_HTTP_RETRY_BUDGET',
} as const;

/** `CONVERGE_HTTP_MAX_BODY` (`8MB`, `512KB`, bytes), `CONVERGE_HTTP_DEADLINE` and `CONVERGE_HTTP_RETRY_BUDGET` (`2m`, `90s`). */
export function httpLimitsFromEnv(env: NodeJS.ProcessEnv): HttpLimits {
  const limits = { ...HTTP_LIMIT_DEFAULTS };
  const body = env[HTTP_LIMIT_SETTINGS.maxBodyBytes];
  if (body !== undefined && body.trim() !== '') limits.maxBodyBytes = parseSize(body, HTTP_LIMIT_SETTINGS.maxBodyBytes);
  const deadline = env[HTTP_LIMIT_SETTINGS.deadlineMs];
  if (deadline !== undefined && deadline.trim() !== '') limits.deadlineMs = parseWait(deadline, HTTP_LIMIT_SETTINGS.deadlineMs);
  const budget = env[HTTP_LIMIT_SETTINGS.retryBudgetMs];
  if (budget !== undefined && budget.trim() !== '') limits.retryBudgetMs = parseWait(budget, HTTP_LIMIT_SETTINGS.retryBudgetMs);
  return limits;
}

const SIZE_UNITS: Record<string, number> = { '': 1, b: 1, kb: 1024, kib: 1024, mb: 1024 ** 2, mib: 1024 ** 2, gb: 1024 ** 3, gib: 1024 ** 3 };

function parseSize(text: string, name: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  const unit = SIZE_UNITS[(m?.[2] ?? '').toLowerCase()];
  const bytes = m && unit !== undefined ? Math.floor(Number(m[1]) * unit) : NaN;
  if (!Number.isFinite(bytes) || bytes < 1024) {
    throw new ConvergeError('config.http-limit', `${name}="${text}" is not a size of at least 1KB`, { source: 'user', hint: `write it like 8MB, 512KB or a number of bytes (default ${formatBytes(HTTP_LIMIT_DEFAULTS.maxBodyBytes)})` });
  }
  return bytes;
}

function parseWait(text: string, name: string): number {
  const t = text.trim();
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h)/g;
  let total = 0;
  let consumed = 0;
  for (const m of t.matchAll(re)) {
    const n = Number(m[1]);
    total += m[2] === 'ms' ? n : m[2] === 's' ? n * 1000 : m[2] === 'm' ? n * 60_000 : n * 3_600_000;
    consumed += m[0].length;
  }
  if (/^\d+$/.test(t)) total = Number(t) * 1000;
  else if (consumed !== t.length || t === '') total = NaN;
  if (!Number.isFinite(total) || total <= 0) {
    throw new ConvergeError('config.http-limit', `${name}="${text}" is not a duration`, { source: 'user', hint: 'write it like 90s, 2m or 1m30s' });
  }
  return Math.round(total);
}

export function formatBytes(n: number): string {
  if (n >= 1024 ** 2 && n % 1024 ** 2 === 0) return `${n / 1024 ** 2} MB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KB`;
  return `${n} bytes`;
}

/** An attempt ended by a limit: carried as a network failure (it may have reached the server), never retried. */
export class ResponseLimitExceeded extends Error {
  constructor(
    readonly code: 'CONVERGE_BODY_TOO_LARGE' | 'CONVERGE_DEADLINE',
    readonly limit: number,
  ) {
    super(code === 'CONVERGE_BODY_TOO_LARGE' ? `response body larger than ${formatBytes(limit)}` : `no complete answer within ${formatDuration(limit)}`);
  }
}

/** The request's final error for an attempt ended by a limit, naming the origin and the setting. */
export function limitError(what: string, origin: string, e: ResponseLimitExceeded): ConvergeError {
  if (e.code === 'CONVERGE_BODY_TOO_LARGE') {
    return new ConvergeError('http.response-too-large', `${what}: ${origin} answered with a body larger than ${formatBytes(e.limit)}; converge stopped reading it`, {
      source: 'remote',
      hint: `a server that is not the API, or an answer that never ends; if the answer is really this large, raise ${HTTP_LIMIT_SETTINGS.maxBodyBytes} (e.g. ${HTTP_LIMIT_SETTINGS.maxBodyBytes}=32MB)`,
      cause: e,
    });
  }
  return new ConvergeError('http.deadline', `${what}: ${origin} did not finish its answer within ${formatDuration(e.limit)}; converge gave up on it`, {
    source: 'remote',
    retryable: true,
    hint: `the server or the network is stalling; try again, or raise ${HTTP_LIMIT_SETTINGS.deadlineMs} (e.g. ${HTTP_LIMIT_SETTINGS.deadlineMs}=5m) if answers are really this slow`,
    cause: e,
  });
}
