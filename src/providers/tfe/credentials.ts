import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ConvergeError } from '../../diagnostics/errors.js';

/**
 * Connection settings from the environment, the way the vendors' own CLIs read them.
 * Tokens never come from command-line arguments (they would show in `ps` and shell history).
 */

export interface TfeConnection {
  /** Base URL without `/api/v2`. */
  address: string;
  hostname: string;
  token?: string;
  /** Where the token came from, for messages (never the token itself). */
  tokenSource?: string;
  organization?: string;
}

/** When TFE_ORGANIZATION names another organization than the Settings document: a warning to print, naming both. */
export function organizationConflict(env: NodeJS.ProcessEnv, organizationFromSettings: string | undefined): string | undefined {
  const fromEnv = env.TFE_ORGANIZATION;
  if (!fromEnv || !organizationFromSettings || fromEnv === organizationFromSettings) return undefined;
  return `TFE_ORGANIZATION is "${fromEnv}" but the Settings document names organization "${organizationFromSettings}": using "${organizationFromSettings}" (the Settings document wins); unset TFE_ORGANIZATION or change spec.tfe.organization so they agree`;
}

/**
 * go-tfe's order for the address (TFE_ADDRESS, else https://$TFE_HOSTNAME, else app.terraform.io) and
 * Terraform CLI's order for the token (TFE_TOKEN, then TF_TOKEN_<host>, then the CLI credentials file).
 * docs/reference/hcp-terraform-api.md §10.
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
  // The Settings document (or a command's --organization) is more specific than the environment, which
  // a CI runner or a shell profile may set for every project it serves: it wins (organizationConflict).
  const org = organizationFromSettings || env.TFE_ORGANIZATION;
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
  const fromHostEnv = tokenFromHostEnv(env, host);
  if (fromHostEnv) return fromHostEnv;
  // Terraform merges `credentials` blocks of the CLI config with credentials.tfrc.json (docs/reference/hcp-terraform-api.md §10).
  for (const file of credentialsFiles(env)) {
    const token = readCredentialsFile(file, host);
    if (token) return { token, source: file };
  }
  return undefined;
}

/** Terraform's rule: periods become `_`, hyphens may be written `__` (TF collectCredentialsFromEnv). */
export function tfTokenEnvName(host: string): string {
  return 'TF_TOKEN_' + bareHost(host).replace(/-/g, '__').replace(/\./g, '_');
}

/**
 * Like Terraform's collectCredentialsFromEnv: every `TF_TOKEN_*` variable is decoded back to a host
 * (`__` → `-`, `_` → `.`) and compared case-insensitively, so `TF_TOKEN_APP_TERRAFORM_IO` and a
 * literal hyphen (`TF_TOKEN_my-tfe_example_com`, where the shell allows it) both match.
 */
function tokenFromHostEnv(env: NodeJS.ProcessEnv, host: string): { token: string; source: string } | undefined {
  const want = bareHost(host).toLowerCase();
  const exact = tfTokenEnvName(host);
  if (env[exact]) return { token: env[exact], source: exact };
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith('TF_TOKEN_') || !value) continue;
    const decoded = name.slice('TF_TOKEN_'.length).replace(/__/g, '-').replace(/_/g, '.').toLowerCase();
    if (decoded === want) return { token: value, source: name };
  }
  return undefined;
}

/**
 * Where Terraform CLI keeps credentials, in the order converge reads them: the CLI config file
 * (`TF_CLI_CONFIG_FILE`, else the legacy `TERRAFORM_CONFIG`, else `~/.terraformrc`), an HCL file
 * with `credentials "host" { token = "…" }` blocks (JSON syntax allowed), then
 * `~/.terraform.d/credentials.tfrc.json`, which `terraform login` writes (docs/reference/hcp-terraform-api.md §10).
 */
export function credentialsFiles(env: NodeJS.ProcessEnv): string[] {
  const home = env.HOME || homedir();
  const cliConfig = env.TF_CLI_CONFIG_FILE || env.TERRAFORM_CONFIG || join(home, '.terraformrc');
  return [cliConfig, join(home, '.terraform.d', 'credentials.tfrc.json')];
}

function readCredentialsFile(file: string, host: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const tokens = text.trimStart().startsWith('{') ? parseJsonCredentials(text, file) : parseHclCredentials(text);
  const want = bareHost(host).toLowerCase();
  for (const [name, token] of tokens) {
    if (name.toLowerCase() === host.toLowerCase() || bareHost(name).toLowerCase() === want) return token;
  }
  return undefined;
}

function parseJsonCredentials(text: string, file: string): Map<string, string> {
  const out = new Map<string, string>();
  let parsed: { credentials?: Record<string, { token?: unknown }> };
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch {
    throw new ConvergeError('config.credentials-file', `cannot parse the Terraform credentials file ${file}`, {
      source: 'user',
      hint: 'it must be JSON like {"credentials":{"app.terraform.io":{"token":"…"}}}; `terraform login` writes it',
    });
  }
  for (const [name, entry] of Object.entries(parsed.credentials ?? {})) {
    if (typeof entry?.token === 'string' && entry.token !== '') out.set(name, entry.token);
  }
  return out;
}

/**
 * The `credentials "host" { token = "…" }` blocks of a .terraformrc-style file. Not a full HCL
 * parser: other blocks (provider_installation, plugin_cache_dir, …) are skipped; comments (`#`,
 * `//`, `/* *\/`) are ignored.
 */
export function parseHclCredentials(text: string): Map<string, string> {
  const out = new Map<string, string>();
  const clean = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*(#|\/\/).*$/gm, '');
  const block = /credentials\s+"([^"]+)"\s*\{([^{}]*)\}/g;
  for (const m of clean.matchAll(block)) {
    const token = /(?:^|\s)token\s*=\s*"((?:[^"\\]|\\.)*)"/.exec(m[2] ?? '');
    if (m[1] && token?.[1]) out.set(m[1], token[1].replace(/\\(.)/g, '$1'));
  }
  return out;
}

/** An environment variable name cannot hold `:`, so the env lookup (and a fallback key match) ignores a port. */
function bareHost(host: string): string {
  return host.replace(/:\d+$/, '');
}

function trimSlash(s: string): string {
  return s.replace(/\/+$/, '');
}
