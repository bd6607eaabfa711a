/**
 * 30 requests per second, as HCP Terraform limits (reference tfc-api.md §8: per user; unauthenticated per IP).
 * The sandbox counts per token (each seeded token stands for one user) with a one-second sliding window.
 */
export const RATE_LIMIT_PER_SECOND = 30;

/** The documented 429 body; the one error whose `status` is a number (reference §8, IDX). */
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

  /** Requests per second per key; the control endpoint may change it (an operator's setting in TFE). */
  constructor(public perSecond: number) {}

  check(key: string, now = Date.now()): RateDecision {
    const limit = this.perSecond;
    const recent = (this.windows.get(key) ?? []).filter((t) => now - t < 1000);
    const oldest = recent[0];
    if (recent.length >= limit) {
      this.windows.set(key, recent);
      return { allowed: false, remaining: 0, resetSeconds: oldest === undefined ? 1 : Math.max(0.001, (oldest + 1000 - now) / 1000) };
    }
    recent.push(now);
    this.windows.set(key, recent);
    const first = recent[0] ?? now;
    return { allowed: true, remaining: limit - recent.length, resetSeconds: (first + 1000 - now) / 1000 };
  }
}
