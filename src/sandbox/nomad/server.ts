import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Clock } from '../../async/clock.js';
import type { Faults } from '../common/faults.js';
import type { RequestLog, RequestLogEntry } from '../common/request-log.js';
import { ADMIN_PREFIX, handleAdmin } from './admin.js';
import type { ModelSettings, Reply, RequestContext } from './context.js';
import { HttpError } from './errors.js';
import { encodeJson } from './json-encode.js';
import { wantsPretty } from './query.js';
import type { Cluster } from './regions.js';
import { isWrite, route } from './routes.js';
import { failsRenewal, losesReply, type VariableFaults } from './variable-faults.js';

export interface ServerDeps {
  cluster: Cluster;
  settings: ModelSettings;
  faults: Faults;
  log: RequestLog;
  /** Switches aimed at one kind of Variables request (variable-faults.ts). */
  variableFaults: VariableFaults;
  clock: Clock;
}

const TEXT = 'text/plain; charset=utf-8';
/** Slow bodies go out in pieces of this size, `slowBodyMs` apart. */
const SLOW_CHUNK_BYTES = 1024;

/*
 * Texts of injected faults. Nomad answers errors in plain text (docs/reference/nomad-api.md §6), so do these;
 * `No cluster leader` is a real Nomad 500 (nomad/structs/errors.go), the others are the sandbox's own words.
 */
const FAULT_TEXT: Record<429 | 500 | 503, string> = {
  429: 'Too many requests',
  500: 'No cluster leader',
  503: 'Service Unavailable',
};

export function createNomadServer(deps: ServerDeps): Server {
  return createServer((req, res) => {
    handle(req, res, deps).catch((e: unknown) => {
      // Last resort: a bug in the simulator itself still gets an answer.
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': TEXT });
      res.end(`sandbox internal error: ${(e as Error).message}`);
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

async function handle(req: IncomingMessage, res: ServerResponse, deps: ServerDeps): Promise<void> {
  const arrived = deps.clock.now();
  const url = new URL(req.url ?? '/', 'http://sandbox');
  const method = req.method ?? 'GET';
  const body = await readBody(req);
  if (url.pathname.startsWith(ADMIN_PREFIX)) {
    handleAdmin(url.pathname, req, body, res, deps.faults, deps.log, url.searchParams);
    return;
  }
  const log = (status: number, fault?: RequestLogEntry['fault']) =>
    deps.log.add({
      service: 'nomad',
      method,
      path: url.pathname,
      query: url.search.slice(1),
      status,
      ms: deps.clock.now() - arrived,
      at: new Date(arrived).toISOString(),
      ...(isWrite(method) && body.length > 0 ? { body: body.toString('utf8') } : {}),
      ...(fault ? { fault } : {}),
    });

  const delay = deps.faults.latency(isWrite(method));
  const decision = deps.faults.decide(isWrite(method));
  if (delay > 0) await deps.clock.sleep(delay);
  if (decision.type === 'reset') {
    req.socket.destroy();
    log(0, 'reset');
    return;
  }
  let reply: Reply;
  let fault: RequestLogEntry['fault'];
  if (decision.type === 'status') {
    reply = { status: decision.status, text: FAULT_TEXT[decision.status] };
    fault = `status-${decision.status}`;
  } else if (decision.type === 'fail-write') {
    reply = { status: 500, text: FAULT_TEXT[500] };
    fault = 'fail-write';
  } else if (failsRenewal(deps.variableFaults, method, url.pathname, url.searchParams)) {
    reply = { status: 500, text: FAULT_TEXT[500] };
    fault = 'fail-renew';
  } else {
    reply = await answer(req, res, url, method, body, deps);
    if (losesReply(deps.variableFaults, method, url.pathname, url.searchParams)) {
      // Applied, but the client never hears of it.
      req.socket.destroy();
      log(reply.status, 'lost-reply');
      return;
    }
  }
  await send(res, reply, wantsPretty(url.searchParams), deps.faults.current.slowBodyMs, deps.clock);
  log(reply.status, fault);
}

async function answer(req: IncomingMessage, res: ServerResponse, url: URL, method: string, body: Buffer, deps: ServerDeps): Promise<Reply> {
  const abort = new AbortController();
  // 'close' before we answered means the client went away: stop any blocking query.
  res.on('close', () => abort.abort());
  try {
    let path: string;
    try {
      path = decodeURIComponent(url.pathname);
    } catch {
      throw new HttpError(400, `invalid URL escape in ${url.pathname}`);
    }
    const ctx: RequestContext = {
      method,
      path,
      query: url.searchParams,
      headers: req.headers,
      body,
      signal: abort.signal,
      cluster: deps.cluster,
      settings: deps.settings,
    };
    return await route(ctx);
  } catch (e) {
    if (e instanceof HttpError) return { status: e.status, headers: e.headers, text: e.text };
    // Uncoded errors become a 500 with the raw text, as Nomad's HTTP layer does (docs/reference/nomad-api.md §6).
    return { status: 500, text: (e as Error).message };
  }
}

async function send(res: ServerResponse, reply: Reply, pretty: boolean, slowMs: number, clock: Clock): Promise<void> {
  if (res.destroyed) return;
  const headers: Record<string, string | number> = { ...reply.headers };
  let bytes: Buffer | undefined;
  if ('json' in reply) {
    headers['Content-Type'] = 'application/json';
    bytes = Buffer.from(encodeJson(reply.json, { pretty, htmlEscape: reply.htmlEscape === true }));
  } else if ('text' in reply) {
    headers['Content-Type'] = TEXT;
    bytes = Buffer.from(reply.text);
  }
  if (reply.status !== 204) headers['Content-Length'] = bytes?.length ?? 0;
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
