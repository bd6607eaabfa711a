import type { Clock } from '../../async/clock.js';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Faults } from '../common/faults.js';
import type { RequestLog, RequestLogEntry } from '../common/request-log.js';
import { authenticate } from './auth.js';
import { parseJsonBody } from './body.js';
import type { Ctx, Reply, Settings } from './context.js';
import { CONTROL_PREFIX, handleControl, type TfeControl } from './control.js';
import { ApiError, errorDocument, notFound, unsupportedMediaType } from './errors.js';
import type { Store } from './model.js';
import { isRunList, RATE_LIMIT_BODY, RATE_LIMIT_PER_SECOND, type RateLimiter, type RunListRation } from './rate-limit.js';
import type { RequestFailures } from './request-failures.js';
import type { Router } from './router.js';
import type { RunEngine } from './run-engine.js';

export interface ServerDeps {
  store: Store;
  engine: RunEngine;
  router: Router;
  settings: Settings;
  faults: Faults;
  log: RequestLog;
  control: TfeControl;
  /** One-shot failures of chosen requests (control `failRequest`). */
  failures: RequestFailures;
  /** null when rate limiting is off. */
  limiter: RateLimiter | null;
  /** The run lists' per-minute ration (its limiter is null when off). */
  runLists: RunListRation;
  /** Send the undocumented `X-RateLimit-Remaining` (tests only; the real service does not document it). */
  sendRemaining: boolean;
}

const JSON_API = 'application/vnd.api+json';
const API_PREFIX = '/api/v2';
/** Slow bodies go out in pieces of this size, `slowBodyMs` apart. */
const SLOW_CHUNK_BYTES = 512;

/** Headers go-tfe reads from the ping (docs/reference/hcp-terraform-api.md §8). */
const SERVICE_HEADERS = { 'TFP-API-Version': '2.6', 'TFP-AppName': 'HCP Terraform', 'X-TFE-Version': 'sandbox' };

/** Service discovery: the provider needs `tfe.v2.2` (docs/reference/hcp-terraform-api.md §8, PV client.go). */
const WELL_KNOWN = {
  'modules.v1': '/api/registry/v1/modules/',
  'motd.v1': '/api/terraform/motd',
  'state.v2': '/api/v2/',
  'tfe.v2': '/api/v2/',
  'tfe.v2.1': '/api/v2/',
  'tfe.v2.2': '/api/v2/',
};

/* Injected 5xx bodies: JSON:API errors in the usual shape (the sandbox's words). */
const FAULT_ERRORS = {
  500: { status: '500', title: 'internal server error', detail: 'sandbox fault: injected 500' },
  503: { status: '503', title: 'service unavailable', detail: 'sandbox fault: injected 503' },
};

export function createTfeServer(deps: ServerDeps): Server {
  return createServer((req, res) => {
    handle(req, res, deps).catch((e: unknown) => {
      // Last resort: a bug in the simulator itself still gets an answer.
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': JSON_API });
      res.end(JSON.stringify(errorDocument([{ status: '500', title: 'internal server error', detail: `sandbox bug: ${(e as Error).message}` }])));
    });
  });
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

const isWrite = (method: string) => method !== 'GET' && method !== 'HEAD';

async function handle(req: IncomingMessage, res: ServerResponse, deps: ServerDeps): Promise<void> {
  const arrived = deps.engine.clock.now();
  const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
  const method = req.method ?? 'GET';
  const body = await readBody(req);
  if (url.pathname === CONTROL_PREFIX || url.pathname.startsWith(`${CONTROL_PREFIX}/`)) {
    handleControl(url.pathname, req, body, res, url.searchParams, deps);
    return;
  }
  const log = (status: number, fault?: RequestLogEntry['fault']) =>
    deps.log.add({
      service: 'tfe',
      method,
      path: url.pathname,
      query: url.search.slice(1),
      status,
      ms: deps.engine.clock.now() - arrived,
      at: new Date(arrived).toISOString(),
      ...(isWrite(method) && body.length > 0 ? { body: body.toString('utf8') } : {}),
      ...(fault ? { fault } : {}),
    });

  const delay = deps.faults.latency(isWrite(method));
  const chosen = deps.failures.take(method, url.pathname);
  const decision = chosen ? { type: 'chosen' as const } : deps.faults.decide(isWrite(method));
  if (delay > 0) await deps.engine.clock.sleep(delay);
  if (decision.type === 'reset') {
    req.socket.destroy();
    log(0, 'reset');
    return;
  }
  // The limit in force (30 unless an operator changed it, or the real 30 when the limiter is off).
  const limitHeaders: Record<string, string> = { 'X-RateLimit-Limit': String(deps.limiter?.perSecond ?? RATE_LIMIT_PER_SECOND) };
  let reply: Reply;
  let fault: RequestLogEntry['fault'];
  if (chosen) {
    // A lost reply: the model acts, the client hears only the 5xx (after the delay, when one is set).
    if (chosen.acted) answer(req, url, method, body, deps);
    if (chosen.delayMs > 0) await deps.engine.clock.sleep(chosen.delayMs);
    reply = { status: chosen.status, json: errorDocument([FAULT_ERRORS[chosen.status]]), ...(chosen.retryAfterSeconds !== undefined ? { headers: { 'Retry-After': String(chosen.retryAfterSeconds) } } : {}) };
    fault = `status-${chosen.status}`;
  } else if (decision.type === 'status' && decision.status === 429) {
    reply = { status: 429, json: RATE_LIMIT_BODY, headers: { 'X-RateLimit-Reset': '0.500' } };
    fault = 'status-429';
  } else if (decision.type === 'status') {
    const status = decision.status === 503 ? 503 : 500;
    reply = { status, json: errorDocument([FAULT_ERRORS[status]]) };
    fault = `status-${decision.status}`;
  } else if (decision.type === 'fail-write') {
    reply = { status: 500, json: errorDocument([FAULT_ERRORS[500]]) };
    fault = 'fail-write';
  } else {
    const limited = rateLimit(req, deps, limitHeaders) ?? runListRation(req, url, method, deps, limitHeaders);
    if (limited) {
      reply = limited;
      fault = 'rate-limit';
    } else {
      reply = answer(req, url, method, body, deps);
    }
  }
  reply.headers = { ...limitHeaders, ...SERVICE_HEADERS, ...reply.headers };
  await send(res, reply, deps.faults.current.slowBodyMs, deps.engine.clock);
  log(reply.status, fault);
}

/**
 * 30 requests per second per token, unauthenticated callers per address (docs/reference/hcp-terraform-api.md §8). Every answer carries
 * `X-RateLimit-Limit`. `X-RateLimit-Remaining` is neither documented nor read by go-tfe, so it is sent only
 * when a test asks for it (`sendRateLimitRemaining`): converge must pace without it (docs/reference/hcp-terraform-api.md §8).
 */
function rateLimit(req: IncomingMessage, deps: ServerDeps, headers: Record<string, string>): Reply | undefined {
  if (!deps.limiter) return undefined;
  const d = deps.limiter.check(limitKey(req, deps), deps.engine.clock.now());
  if (deps.sendRemaining) headers['X-RateLimit-Remaining'] = String(d.remaining);
  if (d.allowed) return undefined;
  return { status: 429, json: RATE_LIMIT_BODY, headers: { 'X-RateLimit-Reset': d.resetSeconds.toFixed(3) } };
}

/** Who a limit counts: each seeded token (one user each), else the caller's address (docs/reference/hcp-terraform-api.md §8). */
function limitKey(req: IncomingMessage, deps: ServerDeps): string {
  const token = bearer(req);
  return token !== undefined && Object.values(deps.store.tokens).includes(token) ? `token:${token}` : `ip:${req.socket.remoteAddress ?? '?'}`;
}

/**
 * The run lists' ration: 30 per rolling minute per token besides the per-second limit (Runs API "List Runs in a
 * Workspace" / "in an Organization": "an adjusted rate limit of 30 requests per minute"). Its answers advertise
 * that limit in `X-RateLimit-Limit` (the number the docs give for these endpoints); a refused one gets the
 * documented 429 body and `X-RateLimit-Reset`, the seconds until the oldest request of the minute leaves it.
 */
function runListRation(req: IncomingMessage, url: URL, method: string, deps: ServerDeps, headers: Record<string, string>): Reply | undefined {
  const limiter = deps.runLists.limiter;
  if (!limiter || !url.pathname.startsWith(`${API_PREFIX}/`) || !isRunList(method, url.pathname.slice(API_PREFIX.length))) return undefined;
  const d = limiter.check(limitKey(req, deps), deps.engine.clock.now());
  headers['X-RateLimit-Limit'] = String(limiter.perSecond);
  if (deps.sendRemaining) headers['X-RateLimit-Remaining'] = String(d.remaining);
  if (d.allowed) return undefined;
  return { status: 429, json: RATE_LIMIT_BODY, headers: { 'X-RateLimit-Reset': d.resetSeconds.toFixed(3) } };
}

export function bearer(req: IncomingMessage): string | undefined {
  const h = req.headers.authorization;
  const m = h ? /^Bearer\s+(.+)$/i.exec(h.trim()) : null;
  return m?.[1]?.trim();
}

function answer(req: IncomingMessage, url: URL, method: string, body: Buffer, deps: ServerDeps): Reply {
  try {
    if (url.pathname === '/.well-known/terraform.json' && method === 'GET') {
      return { status: 200, json: WELL_KNOWN, headers: { 'Content-Type': 'application/json' } };
    }
    if (url.pathname !== API_PREFIX && !url.pathname.startsWith(`${API_PREFIX}/`)) throw notFound();
    const path = url.pathname.slice(API_PREFIX.length) || '/';
    // go-tfe's first call; answered without a token (docs/reference/hcp-terraform-api.md §8).
    if (path === '/ping' && method === 'GET') return { status: 204 };
    const token = authenticate(deps.store, bearer(req));
    // Mutating requests without the JSON:API content type, even body-less ones, get 415 (docs/reference/hcp-terraform-api.md §8).
    if ((method === 'POST' || method === 'PATCH' || method === 'DELETE') && !(req.headers['content-type'] ?? '').includes(JSON_API)) {
      throw unsupportedMediaType();
    }
    const match = deps.router.match(method, path);
    if (match === undefined || match === 'method') throw notFound();
    // Organization tokens get the 404 of an unauthorized caller (docs/reference/hcp-terraform-api.md §8).
    if (match.route.noOrgToken && token === 'organization') throw notFound();
    const ctx: Ctx = { method, url, body: parseJsonBody(body), token, store: deps.store, engine: deps.engine, settings: deps.settings };
    return match.route.handler(ctx, match.params);
  } catch (e) {
    if (e instanceof ApiError) return { status: e.status, json: errorDocument(e.errors), headers: e.headers };
    throw e;
  }
}

async function send(res: ServerResponse, reply: Reply, slowMs: number, clock: Clock): Promise<void> {
  if (res.destroyed) return;
  const headers: Record<string, string | number> = { 'Content-Type': JSON_API, ...reply.headers };
  let bytes: Buffer | undefined;
  if (reply.json !== undefined) bytes = Buffer.from(JSON.stringify(reply.json));
  else if (reply.raw !== undefined) bytes = Buffer.from(reply.raw);
  if (reply.status === 204) delete headers['Content-Type'];
  else headers['Content-Length'] = bytes?.length ?? 0;
  res.writeHead(reply.status, headers);
  if (!bytes || bytes.length === 0) {
    res.end();
    return;
  }
  if (slowMs <= 0) {
    res.end(bytes);
    return;
  }
  for (let at = 0; at < bytes.length; at += SLOW_CHUNK_BYTES) {
    if (res.destroyed) return;
    if (at > 0) await clock.sleep(slowMs);
    res.write(bytes.subarray(at, at + SLOW_CHUNK_BYTES));
  }
  res.end();
}
