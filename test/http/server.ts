import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

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
export async function startServer(handler: (req: IncomingMessage, res: ServerResponse, hit: Hit, n: number) => void): Promise<TestServer> {
  const hits: Hit[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const hit: Hit = { method: req.method ?? '', url: req.url ?? '', at: performance.now(), headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
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
