import { ConvergeError } from '../../diagnostics/errors.js';
import type { SourceRange } from '../../diagnostics/types.js';
import { serverErrorCode, serverExcerpt } from '../../http/server-excerpt.js';
import type { HttpResponse } from '../../http/types.js';

/*
 * Nomad status + plain-text body → ConvergeError with a stable code. Every Nomad error body is
 * plain text, never JSON (docs/reference/nomad-api.md §6), so the text is the server's own words. It is
 * redacted before it is shortened or reflowed: a body that echoes a secret, cut through the secret or with
 * a multi-line key joined onto one line, would no longer hold the secret in any form the output's redactor
 * knows. When the request carried a secret (the token, a client secret) the text is never quoted verbatim:
 * the status, a code if the body has one, and a short excerpt (http/server-excerpt.ts).
 */

export interface ErrorContext {
  method: string;
  path: string;
  /** What the request was about, e.g. `<Kind>/<name>` or `ACL role list`. */
  subject: string;
  /** The manifest document behind the request, so a 400 points at a file and line. */
  range?: SourceRange;
  /** Masks every registered secret; applied to the whole body before anything else touches it. */
  redact?: (text: string) => string;
  /** The request carried a secret (the token header, a secret in its body): only an excerpt is quoted. */
  carriedSecret?: boolean;
}

/** The body as a message quotes it: redacted first, then trimmed and shortened (an excerpt when the request carried a secret). */
export function serverText(res: HttpResponse, redact: (text: string) => string = (t) => t, carriedSecret = false, flatten = false): string {
  const text = flatten ? flattenMultierror(redact(res.text)) : res.text;
  return serverExcerpt(text, redact, carriedSecret);
}

/** Multierror text (`1 error occurred:\n\t* X\n\n`, §3.2) on one line: `X; Y`. */
export function flattenMultierror(text: string): string {
  const items = [...text.matchAll(/^\s*\*\s+(.*)$/gm)].map((m) => m[1]?.trim() ?? '');
  if (items.length === 0) return text.replace(/\s+/g, ' ').trim();
  const head = text.slice(0, text.search(/\d+ errors? occurred/)).trim().replace(/:$/, '');
  return `${head ? `${head}: ` : ''}${items.join('; ')}`;
}

/**
 * Only one default auth method (§4): 400 `default method already exists: <name>` from the RPC, or, when
 * two writes race, the state store's uncoded `default ACL auth method already exists: <name>`, which the
 * HTTP layer turns into a 500. Neither changes on a retry.
 */
const DEFAULT_TAKEN = /default (ACL auth )?method already exists: /i;

export function isDefaultTaken(res: HttpResponse): boolean {
  return (res.status === 400 || res.status === 500) && DEFAULT_TAKEN.test(res.text);
}

export function nomadError(res: HttpResponse, ctx: ErrorContext): ConvergeError {
  const carried = ctx.carriedSecret ?? false;
  const text = serverText(res, ctx.redact, carried);
  const where = `${ctx.method} ${ctx.path} (${ctx.subject})`;
  const range = ctx.range ? { range: ctx.range } : {};
  const status = res.status;
  // The status, and Nomad's (or the proxy's in front of it) code when the body is JSON that has one.
  const code = carried ? serverErrorCode(res.text, ctx.redact ?? ((t) => t)) : undefined;
  const label = `${status}${code !== undefined ? ` ${code}` : ''}`;

  if (status === 403) {
    // Any missing, bad or non-management token is 403 `Permission denied` on these endpoints (§6).
    return new ConvergeError('nomad.permission-denied', `Nomad refused ${where} (${label}): ${text || 'Permission denied'}`, {
      source: 'user',
      status,
      hint: 'auth methods and binding rules need a management token: export NOMAD_TOKEN=<the SecretID of a management token>',
    });
  }
  if (status === 400 && /ACL support disabled/i.test(text)) {
    return new ConvergeError('nomad.acl-disabled', `Nomad answered ${where}: ACL support disabled`, {
      source: 'user',
      status,
      hint: 'enable ACLs on the Nomad servers (acl { enabled = true }) and bootstrap them before managing auth methods',
    });
  }
  if (isDefaultTaken(res)) {
    const other = /already exists: (\S+)/.exec(text)?.[1] ?? 'another method';
    // Only one default across all types (§4).
    return new ConvergeError('nomad.default-exists', `Nomad rejected ${ctx.subject}: ${other} is already the default auth method`, {
      source: 'user',
      status,
      ...range,
      hint: `set default: false on ${other} in its manifest (or manage it with converge), so the default can move`,
    });
  }
  if (status === 400) {
    return new ConvergeError('nomad.invalid', `Nomad rejected ${ctx.subject} (${label}): ${serverText(res, ctx.redact, carried, true)}`, {
      source: 'user',
      status,
      ...range,
      hint: `fix ${ctx.subject} in its manifest; the text above is Nomad's own (${ctx.method} ${ctx.path})`,
    });
  }
  if (status === 404) {
    return new ConvergeError('nomad.not-found', `Nomad has no ${ctx.subject} (${ctx.method} ${ctx.path}): ${text}`, {
      source: 'remote',
      status,
    });
  }
  const retryable = status === 429 || status >= 500;
  return new ConvergeError(retryable ? 'nomad.server-error' : 'nomad.unexpected-status', `Nomad answered ${label} to ${where}: ${text || '(empty body)'}`, {
    source: 'remote',
    status,
    retryable,
    ...(retryable ? { hint: 'the request was retried; check the Nomad servers (leader, health) and run converge again' } : {}),
  });
}
