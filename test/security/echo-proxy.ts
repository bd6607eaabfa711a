import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback proxy in front of a simulator. Reads pass through; writes are answered with an error whose
 * body echoes the request (body and auth headers), as careless real servers do in validation errors.
 * converge must still keep every secret out of what it prints and saves.
 */
export interface EchoProxy {
  url: string;
  /** Bodies of the writes that were answered with an echo. */
  echoed: string[];
  stop(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    req.setEncoding('utf8').on('data', (d: string) => (body += d));
    req.on('end', () => resolve(body));
  });
}

/** A custom answer to one write: `undefined` sends the write on to the simulator. */
export type WriteAnswer = (write: { method: string; url: string; body: string }) => { status: number; contentType: string; text: string; headers?: Record<string, string> } | undefined;

/**
 * `style`: how the upstream API words errors (Nomad: plain text; HCP Terraform: JSON:API `errors`).
 * The first `first500` writes to each path are answered 500 (retried where converge retries), the rest 422.
 * `goJson`: the echo escapes `&`, `<`, `>` as Go's encoding/json does (`\u0026`), as Nomad and HCP Terraform would.
 */
export async function startEchoProxy(
  upstream: string,
  style: 'nomad' | 'tfe',
  opts: { first500?: number; goJson?: boolean; answer?: WriteAnswer } = {},
): Promise<EchoProxy> {
  const target = new URL(upstream);
  const echoed: string[] = [];
  const writes = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    void readBody(req).then((received) => {
      let body = received;
      const custom = req.method === 'GET' || req.method === 'HEAD' ? undefined : opts.answer?.({ method: req.method ?? '', url: req.url ?? '', body });
      if (custom) {
        echoed.push(body);
        res.writeHead(custom.status, { ...custom.headers, 'content-type': custom.contentType }).end(custom.text);
        return;
      }
      // Reads pass through; with a custom answer, so do the writes it does not answer.
      if (req.method === 'GET' || req.method === 'HEAD' || opts.answer) {
        const up = httpRequest(
          { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: { ...req.headers, host: target.host } },
          (upRes) => {
            res.writeHead(upRes.statusCode ?? 502, upRes.headers);
            upRes.pipe(res);
          },
        );
        up.on('error', () => res.writeHead(502).end());
        up.end(received);
        return;
      }
      echoed.push(body);
      const n = (writes.get(req.url ?? '') ?? 0) + 1;
      writes.set(req.url ?? '', n);
      const status = n <= (opts.first500 ?? 0) ? 500 : 422;
      if (opts.goJson) body = body.replace(/&/g, '\\u0026').replace(/</g, '\\u003c').replace(/>/g, '\\u003e');
      const auth = `${String(req.headers['x-nomad-token'] ?? '')} ${String(req.headers.authorization ?? '')}`;
      const text = `invalid request ${req.method} ${req.url} with ${auth}: ${body}`;
      if (style === 'nomad') {
        res.writeHead(status, { 'content-type': 'text/plain' }).end(text);
      } else {
        res
          .writeHead(status, { 'content-type': 'application/vnd.api+json' })
          .end(JSON.stringify({ errors: [{ status: String(status), title: 'invalid attribute', detail: text, source: { pointer: '/data/attributes' }, meta: { request: body, authorization: auth } }] }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    echoed,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
