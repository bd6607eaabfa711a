/*
 * What a message may show of a server's error body. A server that echoes what it was sent may echo a
 * secret in a form no redactor knows (its own encoding, a cut, a layout), so when the request carried a
 * secret (a client secret, a sensitive variable, the token: with a token, every request to the service)
 * the body is never quoted verbatim: the message gives the status, the service's error code or title when
 * the body is JSON that has one, and at most EXCERPT_CHARS of the text, masked as a whole before it is cut
 * or reflowed and masked again after (removed markup can join the pieces of a secret).
 */

/** The most of a server's error text a message quotes when the request carried a secret. */
export const EXCERPT_CHARS = 160;
/** The most of a server's text quoted otherwise (nothing secret was sent, so nothing secret can come back). */
export const PLAIN_CHARS = 600;
/** An error code or title longer than this is text, not a code. */
const MAX_CODE = 60;

export type Redact = (text: string) => string;

/** Whether a request carried a secret: any of its parts (header values, the body) changes under `redact`. */
export function carriesSecret(parts: readonly (string | undefined)[], redact: Redact): boolean {
  return parts.some((p) => p !== undefined && p !== '' && redact(p) !== p);
}

/** `text` cut to `max` characters (never through a surrogate pair), with `…` when cut. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\ud800-\udbff]/.test(text[max - 1] ?? '') ? max - 1 : max;
  return `${text.slice(0, end).trimEnd()}…`;
}

/**
 * The server's text as a message quotes it. `carriedSecret`: markup and control characters dropped,
 * whitespace collapsed, at most EXCERPT_CHARS, masked before and after. Otherwise masked, trimmed, and
 * at most PLAIN_CHARS, its lines kept.
 */
export function serverExcerpt(text: string, redact: Redact, carriedSecret: boolean): string {
  const masked = redact(text).trim();
  if (!carriedSecret) return cut(masked, PLAIN_CHARS);
  const flat = masked
    .replace(/<[^>]*>/g, ' ')
    // eslint-disable-next-line no-control-regex
    .replace(/[\s\u0000-\u001f\u007f]+/g, ' ')
    .trim();
  return redact(cut(flat, EXCERPT_CHARS));
}

/**
 * The service's own error code when the body is JSON that names one: JSON:API `errors[0].code`, else
 * `errors[0].title`; OAuth-style `error`; a top-level `code` or `title`. Masked, and only when short.
 */
export function serverErrorCode(text: string, redact: Redact): string | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
  if (typeof body !== 'object' || body === null) return undefined;
  const o = body as Record<string, unknown>;
  const first = Array.isArray(o.errors) && typeof o.errors[0] === 'object' && o.errors[0] !== null ? (o.errors[0] as Record<string, unknown>) : undefined;
  for (const v of [first?.code, first?.title, o.error, o.code, o.title]) {
    if (typeof v === 'number') return String(v);
    if (typeof v !== 'string') continue;
    const code = v.replace(/\s+/g, ' ').trim();
    if (code !== '' && code.length <= MAX_CODE) {
      const masked = redact(code);
      return masked === code ? code : undefined;
    }
  }
  return undefined;
}
