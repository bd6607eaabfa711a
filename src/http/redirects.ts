import { ConvergeError } from '../diagnostics/errors.js';
import { stripQuery } from './request-shape.js';
import type { HttpRequest, HttpResponse } from './types.js';

const MAX_REDIRECTS = 5;

/** Sends one attempt (no redirect handling) to a path of the client's origin. */
export type SendOnce = (method: HttpRequest['method'], path: string, body: string | undefined) => Promise<HttpResponse>;

/**
 * Follows same-origin redirects; refuses others so the token never leaves its origin. 301/302/303
 * turn a GET into a GET (anything else is returned as answered); 307/308 keep method and body.
 */
export async function sendFollowingRedirects(send: SendOnce, origin: string, method: HttpRequest['method'], fullPath: string, body: string | undefined): Promise<HttpResponse> {
  let path = fullPath;
  let hopMethod = method;
  let hopBody = body;
  for (let hop = 0; ; hop++) {
    const res = await send(hopMethod, path, hopBody);
    const location = res.headers['location'];
    if (res.status < 300 || res.status >= 400 || location === undefined) return res;
    const target = new URL(location, origin + path);
    if (target.origin !== origin) {
      throw new ConvergeError(
        'http.redirect-refused',
        `${method} ${stripQuery(fullPath)} was redirected (${res.status}) to another origin, ${target.origin}; converge does not follow it with the token`,
        { source: 'remote', status: res.status, hint: `point the address at the server that answers directly (was ${origin})` },
      );
    }
    const keepsMethod = res.status === 307 || res.status === 308;
    if (!keepsMethod && hopMethod !== 'GET') return res;
    if (hop >= MAX_REDIRECTS) {
      throw new ConvergeError('http.redirect-loop', `${method} ${stripQuery(fullPath)}: more than ${MAX_REDIRECTS} redirects`, {
        source: 'remote',
        status: res.status,
      });
    }
    path = target.pathname + target.search;
    if (!keepsMethod) {
      hopMethod = 'GET';
      hopBody = undefined;
    }
  }
}
