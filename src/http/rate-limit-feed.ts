import type { HostGate } from './gate.js';
import type { Pacer } from './pacer.js';

/**
 * Reads X-RateLimit-* so converge slows down before the server has to answer 429: the pace follows
 * the limit, and an answer saying the window is (about to be) full closes the gate until it moves.
 * `inFlight`: attempts sent and not yet answered. Never fed by a request of a rationed endpoint family
 * (`HttpRequest.rateScope`): its headers describe that family's ration (HCP Terraform's run lists advertise 30, per
 * minute), not the host's limit per second.
 */
export function feedRateLimit(headers: Record<string, string>, pacer: Pacer | undefined, gate: HostGate, inFlight: number): void {
  const limit = Number(headers['x-ratelimit-limit']);
  // The window of X-RateLimit-Limit is not named by the header; HCP Terraform's is one second
  // (docs/reference/hcp-terraform-api.md §8). Like go-tfe, follow the advertised value (a TFE operator may set another);
  // it only moves a pace the caller asked for, never invents one.
  if (pacer && Number.isFinite(limit) && limit > 0) pacer.follow(limit);
  const remainingHeader = headers['x-ratelimit-remaining'];
  if (remainingHeader === undefined || remainingHeader.trim() === '') return;
  const remaining = Number(remainingHeader);
  // The requests already on their way will take slots this answer still counts as free: when they
  // can use up what is left, wait for the window to move (X-RateLimit-Reset) instead of earning a 429.
  if (!Number.isFinite(remaining) || remaining > inFlight) return;
  let resetSecs = Number(headers['x-ratelimit-reset']);
  if (!Number.isFinite(resetSecs) || resetSecs <= 0) return;
  // Some services send an epoch time instead of seconds-until-reset.
  if (resetSecs > 1e9) resetSecs = resetSecs - gate.clock.now() / 1000;
  gate.closeFor(Math.min(resetSecs * 1000, 60_000));
}
