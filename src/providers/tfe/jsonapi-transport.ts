import { realClock, type Clock } from '../../async/clock.js';
import type { HttpClient, HttpRequest, HttpResponse } from '../../http/types.js';
import { tfeError, type ErrorContext } from './errors.js';
import { decodeJson, parseDocument, parseListDocument, WireError, type JsonApiResource } from './wire.js';

/*
 * The one JSON:API transport of the HCP Terraform client: headers, any-2xx success, coded errors, pagination and
 * the raw GETs the read-backs use. The per-resource clients (*-client.ts) are built over it.
 * Paths are relative to `<address>/api/v2`. Every response is validated in wire.ts; every non-2xx becomes a coded
 * error in errors.ts. docs/reference/hcp-terraform-api.md §8: `Content-Type: application/vnd.api+json` on every POST/PATCH/DELETE,
 * even body-less ones (else 415); statuses vary between siblings (200/201/202/204), so any 2xx is success
 * (reference "Surprises" 1).
 */

export const MEDIA_TYPE = 'application/vnd.api+json';
/** Maximum page size (docs/reference/hcp-terraform-api.md §8 Pagination). */
export const PAGE_SIZE = 100;

/** What a call is about, for errors (and the manifest object, so a 422 finds its file:line). */
export type CallContext = Omit<ErrorContext, 'organization'>;

/** One page of a JSON:API list; `hasNext` when the list goes on after it. */
export interface ListPage {
  data: JsonApiResource[];
  included: JsonApiResource[];
  pageNumber: number;
  totalPages: number | null;
  hasNext: boolean;
}

export type ListQuery = Record<string, string | number | boolean | undefined>;

function isOk(status: number): boolean {
  return status >= 200 && status < 300;
}

export class JsonApiTransport {
  constructor(
    readonly http: HttpClient,
    readonly organization: string,
    /** Masks every registered secret: server error text is masked before it is cut. */
    readonly redact: (text: string) => string = (t) => t,
    /** Time for run following and polling (the HTTP client has its own, the same in production). */
    readonly clock: Clock = realClock,
  ) {}

  /** A non-2xx answer as a coded error. Every request carries the token: the error quotes only an excerpt. */
  private error(res: HttpResponse, ctx: CallContext): Error {
    return tfeError(res, { ...ctx, organization: this.organization, redact: this.redact, carriedSecret: true });
  }

  /** The organization as a path segment. */
  get org(): string {
    return encodeURIComponent(this.organization);
  }

  /** Sends one request; non-2xx → coded error. */
  async send(req: HttpRequest, ctx: CallContext): Promise<HttpResponse> {
    const write = req.method !== 'GET';
    const headers: Record<string, string> = { Accept: MEDIA_TYPE, ...(write ? { 'Content-Type': MEDIA_TYPE } : {}), ...req.headers };
    const body = req.body === undefined ? undefined : typeof req.body === 'string' ? req.body : JSON.stringify(req.body);
    const res = await this.http.request({
      ...req,
      headers,
      ...(body !== undefined ? { body } : {}),
      subject: req.subject ?? ctx.what,
    });
    if (!isOk(res.status)) throw this.error(res, ctx);
    return res;
  }

  /** Sends one request and decodes its JSON answer. */
  async json(req: HttpRequest, ctx: CallContext): Promise<unknown> {
    const res = await this.send(req, ctx);
    return decodeJson(res.text, ctx.what);
  }

  /** A one-resource document (`data` must not be null). */
  async one(req: HttpRequest, ctx: CallContext): Promise<{ data: JsonApiResource; included: JsonApiResource[] }> {
    const doc = parseDocument(await this.json(req, ctx), ctx.what);
    if (doc.data === null) throw new WireError(ctx.what, 'data is null');
    return { data: doc.data, included: doc.included };
  }

  /** GET returning null on 404 (the reads that find out whether something exists). */
  async getOrNull(path: string, query: HttpRequest['query'], ctx: CallContext): Promise<unknown> {
    const res = await this.http.request({ method: 'GET', path, headers: { Accept: MEDIA_TYPE }, subject: ctx.what, ...(query ? { query } : {}) });
    if (res.status === 404) return null;
    if (!isOk(res.status)) throw this.error(res, ctx);
    return decodeJson(res.text, ctx.what);
  }

  /**
   * GET of one resource that may not exist: null only on 404. A success must carry the resource: a 2xx
   * whose `data` is null (or not a resource) is an unexpected answer, an error, never "gone": read as
   * gone, an owned workspace would be created a second time.
   */
  async oneOrNull(path: string, query: HttpRequest['query'], ctx: CallContext): Promise<{ data: JsonApiResource; included: JsonApiResource[] } | null> {
    const body = await this.getOrNull(path, query, ctx);
    if (body === null) return null;
    const doc = parseDocument(body, ctx.what);
    if (doc.data === null) throw new WireError(ctx.what, 'a success (200) with data null; only a 404 means there is none');
    return { data: doc.data, included: doc.included };
  }

  /** A delete-like request (no body): true when done, false on 404 (already gone), a coded error otherwise. */
  async sendOrGone(req: Pick<HttpRequest, 'method' | 'path' | 'idempotent'>, ctx: CallContext): Promise<boolean> {
    const res = await this.http.request({ ...req, headers: { Accept: MEDIA_TYPE, 'Content-Type': MEDIA_TYPE }, subject: ctx.what });
    if (res.status === 404) return false;
    if (!isOk(res.status)) throw this.error(res, ctx);
    return true;
  }

  /** A GET for a read-back: the raw 2xx answer, undefined on 404, a throw otherwise ("cannot tell"). */
  async readBackGet(path: string, query?: HttpRequest['query'], rateScope?: string): Promise<HttpResponse | undefined> {
    const res = await this.http.request({ method: 'GET', path, headers: { Accept: MEDIA_TYPE }, ...(query ? { query } : {}), ...(rateScope ? { rateScope } : {}) });
    if (res.status === 404) return undefined;
    if (!isOk(res.status)) throw new Error(`read-back of ${path} answered ${res.status}`);
    return res;
  }

  /**
   * The pages of a list at page[size]=100, one at a time: a caller maps each page and lets it go, so a list of
   * 10 000 workspaces never holds more than one page of wire objects. Breaking out stops paging.
   */
  async *pages(path: string, query: ListQuery, ctx: CallContext): AsyncGenerator<ListPage> {
    let page: number | null = 1;
    let size = PAGE_SIZE;
    while (page !== null) {
      const doc = parseListDocument(await this.json({ method: 'GET', path, query: { ...query, 'page[size]': size, 'page[number]': page } }, ctx), ctx.what);
      // Page numbers count pages of the size the service used: a service that pages smaller than
      // asked is followed at its own size, so no item is skipped.
      if (doc.pageSize !== null && doc.pageSize > 0 && doc.pageSize < size) size = doc.pageSize;
      // An out-of-range page answers 200 with empty data (docs/reference/hcp-terraform-api.md §4): stop there too.
      const next: number | null = doc.data.length === 0 || doc.nextPage === null || doc.nextPage <= page ? null : doc.nextPage;
      yield { data: doc.data, included: doc.included, pageNumber: page, totalPages: doc.totalPages, hasNext: next !== null };
      page = next;
    }
  }

  /**
   * Every page of a list, collected (for the short lists: registry modules, projects, agent pools). `keepGoing`
   * may stop early (after a page is added; asked only when another page follows).
   */
  async listAll(
    path: string,
    query: ListQuery,
    ctx: CallContext,
    keepGoing?: (page: { data: JsonApiResource[]; totalPages: number | null; pageNumber: number }) => boolean,
  ): Promise<{ data: JsonApiResource[]; included: JsonApiResource[] }> {
    const data: JsonApiResource[] = [];
    const included: JsonApiResource[] = [];
    for await (const page of this.pages(path, query, ctx)) {
      data.push(...page.data);
      included.push(...page.included);
      if (page.hasNext && keepGoing && !keepGoing(page)) break;
    }
    return { data, included };
  }
}
