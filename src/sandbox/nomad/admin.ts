import type { IncomingMessage, ServerResponse } from 'node:http';
import { NO_FAULTS, type FaultSettings, type Faults } from '../common/faults.js';
import type { RequestLog } from '../common/request-log.js';

/**
 * The sandbox's own switches, for people and tests: `GET|PUT /__sandbox/faults`, `GET|DELETE /__sandbox/log`.
 * Not part of Nomad's API: never logged, never subject to faults.
 */
export const ADMIN_PREFIX = '/__sandbox/';

export function handleAdmin(path: string, req: IncomingMessage, body: Buffer, res: ServerResponse, faults: Faults, log: RequestLog, query: URLSearchParams): void {
  const send = (status: number, value: unknown) => {
    const text = `${JSON.stringify(value, null, 2)}\n`;
    res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
    res.end(text);
  };
  if (path === '/__sandbox/faults') {
    if (req.method === 'GET') return send(200, faults.current);
    if (req.method === 'PUT' || req.method === 'PATCH') {
      const patch = parsePatch(body);
      if (typeof patch === 'string') return send(400, { error: patch });
      faults.set(patch);
      return send(200, faults.current);
    }
    return send(405, { error: 'use GET or PUT' });
  }
  if (path === '/__sandbox/log') {
    if (req.method === 'GET') {
      const service = query.get('service');
      return send(200, service === 'nomad' || service === 'tfe' ? log.summaries({ service }) : log.summaries());
    }
    if (req.method === 'DELETE') {
      log.clear();
      return send(200, { cleared: true });
    }
    return send(405, { error: 'use GET or DELETE' });
  }
  send(404, { error: `unknown sandbox path ${path}; try /__sandbox/faults or /__sandbox/log` });
}

/** A JSON object of known FaultSettings keys with finite, non-negative numbers; else an error text. */
function parsePatch(body: Buffer): Partial<FaultSettings> | string {
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8') || '{}');
  } catch (e) {
    return `body is not JSON: ${(e as Error).message}`;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'body must be a JSON object of fault settings';
  const out: Partial<FaultSettings> = {};
  for (const [k, v] of Object.entries(value)) {
    if (!(k in NO_FAULTS)) return `unknown fault setting ${JSON.stringify(k)}; known: ${Object.keys(NO_FAULTS).join(', ')}`;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) return `${k} must be a non-negative number`;
    if (k.startsWith('rate') && v > 1) return `${k} is a probability between 0 and 1`;
    out[k as keyof FaultSettings] = v;
  }
  return out;
}
