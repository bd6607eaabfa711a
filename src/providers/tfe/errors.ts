import { ConvergeError } from '../../diagnostics/errors.js';
import type { SourceRange } from '../../diagnostics/types.js';
import type { AnyDesired } from '../../model/desired.js';
import { serverErrorCode, serverExcerpt } from '../../http/server-excerpt.js';
import type { HttpResponse } from '../../http/types.js';
import { parseErrors, type WireErrorObject } from './wire.js';

/*
 * JSON:API error bodies → ConvergeError with a stable code, whose fault it is, and a hint.
 * docs/reference/hcp-terraform-api.md §8: 401 only for a missing/bad token; a valid token without access gets
 * the same 404 as a missing object; 409 on safe-delete of a workspace that manages resources;
 * 422 may carry `source.pointer`; 415 when Content-Type is missing on a write (a converge bug).
 * Every request carries the token, so the detail is never quoted verbatim: the status, the error's `code` (or
 * `title`), and a short excerpt masked as a whole before it is cut (http/server-excerpt.ts).
 */

export interface ErrorContext {
  /** What the request was about, for people: `no-code module of acme/vpc/aws`, `workspace vpc-dev`. */
  what: string;
  organization: string;
  /** The manifest object behind the request: a 422 pointer is mapped back to its file:line. */
  desired?: AnyDesired;
  /**
   * Extra pointer prefixes for this request, longest match wins, e.g. a vars API call for the
   * manifest's variable 2: `{ '/data': '/spec/variables/2' }`.
   */
  pointers?: Record<string, string>;
  /**
   * The endpoint refuses organization tokens with the same 404 as a missing object (no-code
   * enable, update, create-workspace: docs/reference/hcp-terraform-api.md §8): the 404 message says so too.
   */
  refusesOrganizationTokens?: boolean;
  /** Masks every registered secret in the server's text before it is cut. */
  redact?: (text: string) => string;
  /** The request carried a secret (the token, a sensitive variable): only an excerpt of the detail is quoted. */
  carriedSecret?: boolean;
}

function camel(segment: string): string {
  return segment.replace(/[-_]([a-z])/g, (_m, c: string) => c.toUpperCase());
}

/**
 * Maps a request pointer to a manifest pointer (`/spec/...`) through the call's table (its kind's request
 * attributes, from the kind's endpoints), by the longest prefix; undefined when nothing matches.
 */
export function manifestPointer(pointer: string, table: Record<string, string> = {}): string | undefined {
  let best: string | undefined;
  for (const prefix of Object.keys(table)) {
    if ((pointer === prefix || pointer.startsWith(prefix + '/')) && (best === undefined || prefix.length > best.length)) best = prefix;
  }
  if (best === undefined) return undefined;
  const rest = pointer
    .slice(best.length)
    .split('/')
    .filter((s) => s !== '' && s !== 'attributes')
    .map(camel);
  return [table[best], ...rest].join('/');
}

/** The range of the deepest manifest node on the pointer's path, else the document. */
export function rangeOf(desired: AnyDesired, pointer: string | undefined): SourceRange {
  if (pointer !== undefined) {
    const parts = pointer.split('/');
    for (let n = parts.length; n > 1; n--) {
      const r = desired.positions[parts.slice(0, n).join('/')];
      if (r) return r;
    }
  }
  return desired.range;
}

function describe(errors: readonly WireErrorObject[]): string {
  // go-tfe joins title and detail; the detail alone reads better when present.
  return errors
    .map((e) => e.detail ?? e.title ?? '')
    .filter((s) => s !== '')
    .join('; ');
}

export function tfeError(res: HttpResponse, ctx: ErrorContext): ConvergeError {
  const errors = parseErrors(res.text);
  const redact = ctx.redact ?? ((t: string) => t);
  const carried = ctx.carriedSecret ?? false;
  const status = res.status;
  const code = carried ? serverErrorCode(res.text, redact) : undefined;
  const label = `${status}${code !== undefined ? ` ${code}` : ''}`;
  const detail = serverExcerpt(describe(errors), redact, carried);
  const suffix = detail !== '' && detail !== code ? `: ${detail}` : '';
  switch (true) {
    case status === 401:
      return new ConvergeError('tfe.token.invalid', `HCP Terraform rejected the token (401) while reading or writing ${ctx.what}`, {
        source: 'user',
        status,
        hint: 'set TFE_TOKEN to a valid user or team token for this host',
      });
    case status === 404:
      return new ConvergeError(
        'tfe.not-found',
        `${ctx.what} not found in organization ${ctx.organization}, or the token is not authorized to see it (HCP Terraform answers 404 for both)`,
        {
          source: 'user',
          status,
          hint: ctx.refusesOrganizationTokens
            ? `check the name and the organization, and that TFE_TOKEN is a user or team token with access in ${ctx.organization}: organization tokens get this 404 here`
            : `check the name and the organization, and that the token's user or team has access in ${ctx.organization}`,
        },
      );
    case status === 409:
      return new ConvergeError('tfe.conflict', `HCP Terraform refused the change to ${ctx.what} (${label})${suffix}`, { source: 'remote', status, serverDetail: detail });
    case status === 422: {
      const pointer = errors.find((e) => e.pointer !== null)?.pointer ?? undefined;
      const mapped = ctx.desired && pointer !== undefined ? manifestPointer(pointer, ctx.pointers) : undefined;
      const range = ctx.desired ? rangeOf(ctx.desired, mapped) : undefined;
      return new ConvergeError('tfe.invalid', `HCP Terraform rejected ${ctx.what} (${label})${suffix}`, {
        source: 'user',
        status,
        ...(range ? { range } : {}),
        hint: mapped !== undefined ? `check ${mapped.replace(/^\//, '').replace(/\//g, '.')} in the manifest` : 'check the manifest against the service',
      });
    }
    case status === 403:
      return new ConvergeError('tfe.forbidden', `HCP Terraform forbids this on ${ctx.what} (${label})${suffix}`, {
        source: 'user',
        status,
        hint: 'the token lacks the permission this needs (e.g. force delete needs an owner)',
      });
    case status === 415:
      return new ConvergeError('tfe.content-type', `HCP Terraform refused the media type for ${ctx.what} (415)`, { source: 'internal', status });
    case status === 429:
      // The HTTP layer waits and retries 429s; reaching here means its retries ran out.
      return new ConvergeError('tfe.rate-limited', `HCP Terraform kept rate-limiting requests for ${ctx.what} (429)`, {
        source: 'remote',
        status,
        retryable: true,
        hint: 'the limit is 30 requests per second per user: another process may be using the same user',
      });
    case status >= 500:
      return new ConvergeError('tfe.server-error', `HCP Terraform failed on ${ctx.what} (${label})${suffix}`, { source: 'remote', status, retryable: true });
    default:
      return new ConvergeError('tfe.unexpected-status', `HCP Terraform answered ${label} for ${ctx.what}${suffix}`, { source: 'remote', status });
  }
}
