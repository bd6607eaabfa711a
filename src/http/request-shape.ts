import type { HttpRequest } from './types.js';

/** `?a=1&b=2` from a query object (undefined values left out), or ''. */
export function queryString(query: HttpRequest['query']): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) params.append(k, String(v));
  const s = params.toString();
  return s === '' ? '' : `?${s}`;
}

/** The request's headers and body as sent: a body that is not a string goes as JSON, with its content type unless the caller set one. */
export function requestPayload(defaults: Record<string, string> | undefined, req: HttpRequest): { headers: Record<string, string>; body: string | undefined } {
  const headers: Record<string, string> = { ...defaults, ...req.headers };
  if (req.body === undefined) return { headers, body: undefined };
  const body = typeof req.body === 'string' ? req.body : JSON.stringify(req.body);
  if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
  return { headers, body };
}

/** undici's headers as one lower-cased string each (repeated headers joined as HTTP allows). */
export function flattenHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) {
    if (v === undefined) continue;
    out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

export function stripQuery(path: string): string {
  const q = path.indexOf('?');
  return q < 0 ? path : path.slice(0, q);
}
