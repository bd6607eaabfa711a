/**
 * 30 requests per second, as HCP Terraform limits (docs/reference/hcp-terraform-api.md §8: per user; unauthenticated per IP).
 * The sandbox counts per token (each seeded token stands for one user) with a one-second sliding window.
 */
export const RATE_LIMIT_PER_SECOND = 30;

/**
 * The run lists' own ration: "This endpoint has an adjusted rate limit of 30 requests per minute. Note that most
 * endpoints are limited to 30 requests per second." (Runs API, "List Runs in a Workspace" and "List Runs in an
 * Organization"; docs/reference/hcp-terraform-runs.md). Counted per token over a rolling minute, besides the
 * per-second limit.
 */
export const RUN_LIST_PER_MINUTE = 30;

/** The documented 429 body; the one error whose `status` is a number (docs/reference/hcp-terraform-api.md §8, IDX). */
export const RATE_LIMIT_BODY = {
  errors: [{ detail: "You have exceeded the API's rate limit.", status: 429, title: 'Too many requests' }],
};

export interface RateDecision {
  allowed: boolean;
  /** Requests left in the current window after this one. */
  remaining: number;
  /** Seconds until a slot frees up (float, like `X-RateLimit-Reset`, which go-tfe reads). */
  resetSeconds: number;
}

export class RateLimiter {
  private readonly windows = new Map<string, number[]>();

  /**
   * `perSecond` requests per `windowMs` (one second unless told) per key; the control endpoint may change it (an
   * operator's setting in TFE). The run lists' ration is one of these with a one-minute window.
   */
  constructor(
    public perSecond: number,
    readonly windowMs = 1000,
  ) {}

  /** `now`: the simulator's clock, in milliseconds. */
  check(key: string, now: number): RateDecision {
    const limit = this.perSecond;
    const span = this.windowMs;
    const recent = (this.windows.get(key) ?? []).filter((t) => now - t < span);
    const oldest = recent[0];
    if (recent.length >= limit) {
      this.windows.set(key, recent);
      return { allowed: false, remaining: 0, resetSeconds: oldest === undefined ? span / 1000 : Math.max(0.001, (oldest + span - now) / 1000) };
    }
    recent.push(now);
    this.windows.set(key, recent);
    const first = recent[0] ?? now;
    return { allowed: true, remaining: limit - recent.length, resetSeconds: (first + span - now) / 1000 };
  }
}

/** `GET /workspaces/:id/runs` and `GET /organizations/:org/runs` (paths under /api/v2): the rationed run lists. */
export function isRunList(method: string, apiPath: string): boolean {
  return method === 'GET' && /^\/(workspaces|organizations)\/[^/]+\/runs\/?$/.test(apiPath);
}

/** The run lists' ration, switchable at run time (control `setRunListRation`): tests and benchmarks tune it. */
export class RunListRation {
  limiter: RateLimiter | null = null;

  constructor(perMinute: number | false) {
    this.set(perMinute);
  }

  /** Requests per rolling minute per token; false turns the ration off (the per-second limit still holds). */
  set(perMinute: number | false): void {
    if (perMinute !== false && (!Number.isInteger(perMinute) || perMinute < 1)) throw new Error('the run-list ration must be a positive whole number of requests per minute, or false (off)');
    this.limiter = perMinute === false ? null : new RateLimiter(perMinute, 60_000);
  }
}
