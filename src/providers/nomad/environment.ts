import type { TlsOptions } from '../../http/types.js';

/**
 * Connection settings from the environment, the way the vendors' own CLIs read them.
 * Tokens never come from command-line arguments (they would show in `ps` and shell history).
 */

export interface NomadConnection {
  address: string;
  token?: string;
  region?: string;
  tls: TlsOptions;
}

export function nomadFromEnv(env: NodeJS.ProcessEnv): NomadConnection {
  const tls: TlsOptions = {};
  if (env.NOMAD_CACERT) tls.caCertFile = env.NOMAD_CACERT;
  if (env.NOMAD_CLIENT_CERT) tls.clientCertFile = env.NOMAD_CLIENT_CERT;
  if (env.NOMAD_CLIENT_KEY) tls.clientKeyFile = env.NOMAD_CLIENT_KEY;
  if (isTrue(env.NOMAD_SKIP_VERIFY)) tls.skipVerify = true;
  const conn: NomadConnection = {
    address: trimSlash(env.NOMAD_ADDR || 'http://127.0.0.1:4646'),
    tls,
  };
  if (env.NOMAD_TOKEN) conn.token = env.NOMAD_TOKEN;
  if (env.NOMAD_REGION) conn.region = env.NOMAD_REGION;
  return conn;
}

function isTrue(v: string | undefined): boolean {
  return v !== undefined && ['1', 'true', 'yes'].includes(v.toLowerCase());
}

function trimSlash(s: string): string {
  return s.replace(/\/+$/, '');
}
