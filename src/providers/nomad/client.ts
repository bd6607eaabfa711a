import type { HttpClient, HttpRequest, HttpResponse } from '../../http/types.js';
import type { SourceRange } from '../../diagnostics/types.js';
import { carriesSecret } from '../../http/server-excerpt.js';
import { nomadError, serverText } from './errors.js';
import { decodeJson } from './wire.js';

/**
 * Typed endpoints of the Nomad ACL API over the one HTTP layer (docs/reference/nomad-api.md §1.1, §10).
 * The token goes in `X-Nomad-Token` (§6: what the Go client sends). `region` is sent as `?region=`
 * when given; writes are forwarded to the authoritative region by Nomad whatever it says (§3.1).
 */
export interface NomadClientOptions {
  http: HttpClient;
  token?: string;
  /** Region for writes and, unless a read names another one, for reads. */
  region?: string;
  /** Masks registered secrets in server text before an error message shortens or reflows it. */
  redact: (text: string) => string;
}

export type DeleteResult = 'deleted' | 'already-gone';

/** Per-call extras: a read region, and the manifest range a 400 should point at. */
export interface CallOptions {
  region?: string;
  range?: SourceRange;
}


/** What a read-back answers when the object is confirmed gone: a 404, which every kind's not-found test takes (requests.ts notFoundAnswer). */
const CONFIRMED_GONE: HttpResponse = { status: 404, headers: {}, text: 'not found (confirmed by a read after the delete failed)' };

/**
 * A delete of a missing object is a 500 (`ACL auth method not found`, docs/reference/nomad-api.md §8; `ACL
 * binding rule not found`, §10), which an idempotent request would retry with backoff (six times,
 * seconds, each a retry warning) before the 500 is looked at. So a delete is sent as non-idempotent with
 * a read-back: after any 5xx or lost reply one GET decides. Gone → done at once; still there → the
 * delete is sent again (a real transient 500 such as `No cluster leader`); the read failing too → the
 * original failure. Other 500s therefore stay errors.
 */
export function goneCheck(isGone: () => Promise<boolean>): Pick<HttpRequest, 'idempotent' | 'readBack'> {
  return { idempotent: false, readBack: async () => ((await isGone()) ? CONFIRMED_GONE : undefined) };
}

export class NomadClient {
  constructor(private readonly opts: NomadClientOptions) {}

  /** The answers to requests that carried a secret (the token, a client secret in the body): their errors quote only an excerpt. */
  private readonly carried = new WeakSet<HttpResponse>();

  /**
   * One request over the connection: the token header, the region (the call's or the configured one), and a
   * note of whether it carried a secret. The kinds' endpoints (src/kinds/<kind>/remote/) send through this.
   */
  async send(req: HttpRequest & { subject: string }, call: CallOptions = {}): Promise<HttpResponse> {
    const region = call.region ?? this.opts.region;
    const res = await this.opts.http.request({
      ...req,
      headers: { ...req.headers, ...(this.opts.token ? { 'X-Nomad-Token': this.opts.token } : {}) },
      query: { ...req.query, ...(region ? { region } : {}) },
    });
    const body = req.body === undefined ? undefined : typeof req.body === 'string' ? req.body : JSON.stringify(req.body);
    if (res.status >= 300 && (Boolean(this.opts.token) || carriesSecret([body], this.opts.redact))) this.carried.add(res);
    return res;
  }

  /** The coded error for an answer the endpoint does not expect (errors.ts), with the manifest range when given. */
  fail(res: HttpResponse, req: { method: string; path: string; subject: string }, call: CallOptions = {}): never {
    throw nomadError(res, { ...req, redact: this.opts.redact, carriedSecret: this.carried.has(res), ...(call.range ? { range: call.range } : {}) });
  }

  /**
   * `GET /v1/regions`: the region names the servers know (docs/reference/service-identity.md). Read
   * without `?region=`: the agent's own servers answer, so a wrong region cannot hide the list.
   */
  async listRegions(): Promise<string[]> {
    const req = { method: 'GET' as const, path: '/v1/regions', subject: 'region list' };
    const res = await this.opts.http.request(req);
    if (res.status !== 200) this.fail(res, req);
    const v = decodeJson(res.text, req.subject);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  }

  /** Raw GET for the preflight probe (the caller interprets the status). */
  async probe(path: string, subject: string): Promise<HttpResponse> {
    return this.send({ method: 'GET', path, subject });
  }

  /** Server text of a response, redacted, then trimmed and shortened for a message. */
  serverText(res: HttpResponse): string {
    return serverText(res, this.opts.redact, this.carried.has(res));
  }
}
