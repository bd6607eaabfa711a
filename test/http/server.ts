import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConvergeError } from '../../src/diagnostics/errors.js';
import { createHttpClient } from '../../src/http/client.js';
import type { HttpClient, HttpClientOptions } from '../../src/http/types.js';

export interface Hit {
  method: string;
  url: string;
  at: number;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface TestServer {
  url: string;
  hits: Hit[];
  stop(): Promise<void>;
}

/** A real node:http server on 127.0.0.1, port 0. The handler sees every request, in arrival order. */
/** `now` stamps each hit (a test on a manual clock passes the clock's, so hit times are the client's times). */
export async function startServer(
  handler: (req: IncomingMessage, res: ServerResponse, hit: Hit, n: number) => void,
  now: () => number = () => performance.now(),
): Promise<TestServer> {
  const hits: Hit[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const hit: Hit = { method: req.method ?? '', url: req.url ?? '', at: now(), headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      hits.push(hit);
      handler(req, res, hit, hits.length);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export function send(res: ServerResponse, status: number, body = '', headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'text/plain', ...headers });
  res.end(body);
}

/**
 * Loopback servers and HTTP clients for one test file, closed after each test (clients first), and
 * `failure` to await an expected ConvergeError.
 */
export function loopbackFixtures(afterEach: (fn: () => Promise<void>) => void, clientDefaults: Partial<HttpClientOptions> = { retry: { minTimeoutMs: 5, maxTimeoutMs: 20 } }) {
  const servers: TestServer[] = [];
  const clients: HttpClient[] = [];
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close();
    for (const s of servers.splice(0)) await s.stop();
  });
  return {
    async server(handler: Parameters<typeof startServer>[0]): Promise<TestServer> {
      const s = await startServer(handler);
      servers.push(s);
      return s;
    },
    client(opts: HttpClientOptions): HttpClient {
      const c = createHttpClient({ ...clientDefaults, ...opts });
      clients.push(c);
      return c;
    },
    async failure(p: Promise<unknown>): Promise<ConvergeError> {
      const e = await p.then(
        () => undefined,
        (err: unknown) => err,
      );
      if (!(e instanceof ConvergeError)) throw new Error(`expected a ConvergeError, got ${String(e)}`);
      return e;
    },
  };
}
