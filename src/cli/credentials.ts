import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ConvergeError } from '../diagnostics/errors.js';
import type { TlsOptions } from '../http/types.js';

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

export interface TfeConnection {
  /** Base URL without `/api/v2`. */
  address: string;
  hostname: string;
  token?: string;
  /** Where the token came from, for messages (never the token itself). */
  tokenSource?: string;
  organization?: string;
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

/**
 * go-tfe's order for the address (TFE_ADDRESS, else https://$TFE_HOSTNAME, else app.terraform.io) and
 * Terraform CLI's order for the token (TFE_TOKEN, then TF_TOKEN_<host>, then the CLI credentials file).
 * Reference tfc-api.md §10.
 */
export function tfeFromEnv(env: NodeJS.ProcessEnv, organizationFromSettings?: string): TfeConnection {
  let address: string;
  if (env.TFE_ADDRESS) address = trimSlash(env.TFE_ADDRESS).replace(/\/api\/v2$/, '');
  else if (env.TFE_HOSTNAME) address = `https://${env.TFE_HOSTNAME}`;
  else address = 'https://app.terraform.io';
  let hostname: string;
  try {
    hostname = new URL(address).host;
  } catch {
    throw new ConvergeError('config.tfe-address', `TFE_ADDRESS is not a URL: ${address}`, {
      source: 'user',
      hint: 'set TFE_ADDRESS to a full URL such as https://tfe.example.com',
    });
  }
  const conn: TfeConnection = { address, hostname };
  const org = env.TFE_ORGANIZATION || organizationFromSettings;
  if (org) conn.organization = org;
  const found = tfeToken(env, hostname);
  if (found) {
    conn.token = found.token;
    conn.tokenSource = found.source;
  }
  return conn;
}

function tfeToken(env: NodeJS.ProcessEnv, host: string): { token: string; source: string } | undefined {
  if (env.TFE_TOKEN) return { token: env.TFE_TOKEN, source: 'TFE_TOKEN' };
  const envName = tfTokenEnvName(host);
  const fromHostEnv = env[envName];
  if (fromHostEnv) return { token: fromHostEnv, source: envName };
  const file = credentialsFile(env);
  const fromFile = readCredentialsFile(file, host);
  if (fromFile) return { token: fromFile, source: file };
  return undefined;
}

/** Terraform's rule: periods become `_`, hyphens may be written `__` (TF collectCredentialsFromEnv). */
export function tfTokenEnvName(host: string): string {
  return 'TF_TOKEN_' + host.replace(/:\d+$/, '').replace(/-/g, '__').replace(/\./g, '_');
}

function credentialsFile(env: NodeJS.ProcessEnv): string {
  // TF_CLI_CONFIG_FILE names the CLI config; credentials.tfrc.json sits in the CLI config dir.
  if (env.TF_CLI_CONFIG_FILE && env.TF_CLI_CONFIG_FILE.endsWith('.json')) return env.TF_CLI_CONFIG_FILE;
  const home = env.HOME || homedir();
  return join(home, '.terraform.d', 'credentials.tfrc.json');
}

function readCredentialsFile(file: string, host: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const parsed = JSON.parse(text) as { credentials?: Record<string, { token?: unknown }> };
    const entry = parsed.credentials?.[host] ?? parsed.credentials?.[host.replace(/:\d+$/, '')];
    return typeof entry?.token === 'string' && entry.token !== '' ? entry.token : undefined;
  } catch {
    throw new ConvergeError('config.credentials-file', `cannot parse the Terraform credentials file ${file}`, {
      source: 'user',
      hint: 'it must be JSON like {"credentials":{"app.terraform.io":{"token":"…"}}}; `terraform login` writes it',
    });
  }
}

function isTrue(v: string | undefined): boolean {
  return v !== undefined && ['1', 'true', 'yes'].includes(v.toLowerCase());
}

function trimSlash(s: string): string {
  return s.replace(/\/+$/, '');
}
