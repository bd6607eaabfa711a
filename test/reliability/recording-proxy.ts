import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { seededRandom } from '../../src/sandbox/common/faults.js';

/**
 * A loopback HTTP proxy in front of one simulator that records every request WITH its body and the
 * answer's body, so the reliability suites can name what a create created (natural key, remote id) —
 * the simulators' request log keeps method, path and status only.
 *
 * It also injects the one fault the simulators cannot: a connection reset AFTER the server processed a
 * request (`resetAfterRate`, seeded). The simulators' `rateReset` drops the socket before the handler
 * runs; a lost reply to a POST that did create something is the case where a blind retry duplicates
 * (docs/architecture.md "Rules the code keeps": "a non-idempotent create is retried only after a read by natural key finds nothing").
 */
export interface ProxiedRequest {
  seq: number;
  method: string;
  path: string;
  query: string;
  /** Parsed JSON body, or undefined. */
  body: unknown;
  /** Upstream status; 0 when the upstream connection failed. */
  status: number;
  /** Parsed JSON answer, or undefined. */
  answer: unknown;
  /** The client never saw the answer: the proxy reset the connection after the upstream processed it. */
  resetAfter: boolean;
  /** The answer was sent misbehaving (HostileBody) after the upstream acted. */
  hostile?: HostileBody['mode'];
  at: number;
}

export interface RejectRule {
  match: (method: string, path: string, body: string) => boolean;
  status: number;
  contentType: string;
  body: string;
}

/**
 * An answer that misbehaves AFTER the upstream acted on the request (its real status and headers go out):
 * - `cut`: half the body, then the connection is closed (a reply cut off);
 * - `endless`: part of the body, then one space every 50 ms for as long as the client listens;
 * - `oversize`: the body, then spaces in 64 KB chunks for as long as the client reads.
 */
export interface HostileBody {
  match: (method: string, path: string) => boolean;
  mode: 'cut' | 'endless' | 'oversize';
  /** How many matching answers misbehave (default 1); later ones pass through. */
  times?: number;
}

export interface RecordingProxy {
  url: string;
  log: ProxiedRequest[];
  /**
   * Answer matching requests with a permanent refusal instead of forwarding them, as the real service
   * does for a value it rejects (e.g. a 422 JSON:API error, a 400 text error); undefined clears it.
   */
  setReject(rule: RejectRule | undefined): void;
  /**
   * The next matching request is forwarded (the upstream processes it) and its answer is never sent: the client
   * waits until it gives up or is killed. Resolves with the request once the upstream has answered it.
   */
  holdAnswer(match: (method: string, path: string) => boolean): Promise<ProxiedRequest>;
  /** Probability (0..1) per matching request of a reset after the upstream answered. */
  setResetAfter(rate: number, match?: (method: string, path: string) => boolean): void;
  /** Misbehave on matching answers (HostileBody); undefined clears it. Each answer sent so is marked `hostile` in the log. */
  setHostileBody(rule: HostileBody | undefined): void;
  stop(): Promise<void>;
}

export async function startRecordingProxy(upstreamUrl: string, seed = 7): Promise<RecordingProxy> {
  const upstream = new URL(upstreamUrl);
  const log: ProxiedRequest[] = [];
  const random = seededRandom(seed);
  let resetRate = 0;
  let resetMatch: (method: string, path: string) => boolean = (m) => m === 'POST';
  let selfOrigin = '';
  let reject: RejectRule | undefined;
  let hostile: { rule: HostileBody; left: number } | undefined;
  const timers = new Set<NodeJS.Timeout>();
  let hold: { match: (method: string, path: string) => boolean; held: (r: ProxiedRequest) => void } | undefined;

  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await readAll(req);
      const url = new URL(req.url ?? '/', 'http://proxy');
      const entry: ProxiedRequest = {
        seq: log.length,
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.search.slice(1),
        body: parseJson(body),
        status: 0,
        answer: undefined,
        resetAfter: false,
        at: Date.now(),
      };
      log.push(entry);
      if (reject?.match(entry.method, entry.path, body.toString('utf8'))) {
        entry.status = reject.status;
        res.writeHead(reject.status, { 'content-type': reject.contentType, 'content-length': String(Buffer.byteLength(reject.body)) });
        res.end(reject.body);
        return;
      }
      const headers = { ...req.headers, host: upstream.host };
      const up = httpRequest({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers });
      up.on('error', () => {
        req.socket.destroy();
      });
      up.on('response', (ur) => {
        void (async () => {
          const raw = await readAll(ur);
          entry.status = ur.statusCode ?? 0;
          // Links the simulator builds from its own origin must lead back through the proxy.
          const text = raw.toString('utf8').split(upstream.origin).join(selfOrigin);
          entry.answer = parseJson(Buffer.from(text));
          if (hold?.match(entry.method, entry.path)) {
            const { held } = hold;
            hold = undefined;
            held(entry);
            return;
          }
          if (resetRate > 0 && resetMatch(entry.method, entry.path) && random() < resetRate) {
            entry.resetAfter = true;
            req.socket.destroy();
            return;
          }
          const out: Record<string, string | string[]> = {};
          for (const [k, v] of Object.entries(ur.headers)) {
            if (v === undefined || k === 'content-length' || k === 'transfer-encoding' || k === 'connection') continue;
            out[k] = typeof v === 'string' ? v.split(upstream.origin).join(selfOrigin) : v;
          }
          const bytes = Buffer.from(text);
          if (hostile && hostile.left > 0 && hostile.rule.match(entry.method, entry.path)) {
            hostile.left -= 1;
            entry.hostile = hostile.rule.mode;
            misbehave(hostile.rule.mode, entry.status, out, bytes, req, res, timers);
            return;
          }
          out['content-length'] = String(bytes.length);
          res.writeHead(entry.status, out);
          res.end(bytes);
        })();
      });
      up.end(body);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  selfOrigin = `http://127.0.0.1:${port}`;
  return {
    url: selfOrigin,
    log,
    setReject(rule) {
      reject = rule;
    },
    holdAnswer(match) {
      return new Promise((held) => (hold = { match, held }));
    },
    setResetAfter(rate, match) {
      resetRate = rate;
      if (match) resetMatch = match;
    },
    setHostileBody(rule) {
      hostile = rule ? { rule, left: rule.times ?? 1 } : undefined;
    },
    async stop() {
      for (const t of timers) clearInterval(t);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function misbehave(mode: HostileBody['mode'], status: number, headers: Record<string, string | string[]>, bytes: Buffer, req: IncomingMessage, res: ServerResponse, timers: Set<NodeJS.Timeout>): void {
  const half = bytes.subarray(0, Math.floor(bytes.length / 2));
  if (mode === 'cut') {
    res.writeHead(status, { ...headers, 'content-length': String(bytes.length) });
    res.write(half, () => req.socket.destroy());
    return;
  }
  res.writeHead(status, headers);
  if (mode === 'endless') {
    res.write(half);
    const t = setInterval(() => res.write(' '), 50);
    timers.add(t);
    res.on('close', () => {
      clearInterval(t);
      timers.delete(t);
    });
    return;
  }
  res.write(bytes);
  const chunk = Buffer.alloc(64 * 1024, ' ');
  const pump = (): void => {
    while (!res.destroyed) if (!res.write(chunk)) return void res.once('drain', pump);
  };
  pump();
}

function readAll(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

function parseJson(b: Buffer): unknown {
  if (b.length === 0) return undefined;
  try {
    return JSON.parse(b.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
