import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as Undici from 'undici';
import type { Pool } from 'undici';
import { ConvergeError } from '../diagnostics/errors.js';
import type { TlsOptions } from './types.js';

const require = createRequire(import.meta.url);

/**
 * undici's Pool, loaded with the first connection: a command that sends nothing (validate, fmt, a local
 * `state list`) starts without undici's hundred-odd modules, about a tenth of its start-up.
 */
function poolClass(): typeof Pool {
  return (require('undici') as typeof Undici).Pool;
}

export interface PoolOptions {
  connections: number;
  timeoutMs: number;
  tls?: TlsOptions;
}

/**
 * One undici Pool for one origin: keep-alive connections, header/body timeouts, and TLS from the
 * caller (NOMAD_CACERT / NOMAD_CLIENT_CERT / NOMAD_CLIENT_KEY / NOMAD_SKIP_VERIFY are read by the CLI
 * and passed here as TlsOptions).
 */
export function createPool(origin: string, opts: PoolOptions): Pool {
  const tls = opts.tls ?? {};
  const connect: Record<string, unknown> = {};
  if (tls.caCertFile) connect.ca = readTlsFile(tls.caCertFile, 'CA certificate');
  if (tls.clientCertFile) connect.cert = readTlsFile(tls.clientCertFile, 'client certificate');
  if (tls.clientKeyFile) connect.key = readTlsFile(tls.clientKeyFile, 'client key');
  if (tls.skipVerify) connect.rejectUnauthorized = false;
  return new (poolClass())(origin, {
    connections: opts.connections,
    keepAliveTimeout: 10_000,
    headersTimeout: opts.timeoutMs,
    bodyTimeout: opts.timeoutMs,
    connectTimeout: Math.min(opts.timeoutMs, 10_000),
    ...(Object.keys(connect).length > 0 ? { connect } : {}),
  });
}

function readTlsFile(path: string, what: string): Buffer {
  try {
    return readFileSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new ConvergeError('http.tls-file', `cannot read the ${what} file ${path}: ${code}`, {
      source: 'user',
      hint: 'check the path given in NOMAD_CACERT / NOMAD_CLIENT_CERT / NOMAD_CLIENT_KEY (or the matching TLS option) and its permissions',
      cause: e,
    });
  }
}
