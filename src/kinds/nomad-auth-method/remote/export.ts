import { envName, shortDuration, type NameAllocator } from '../../../providers/export-names.js';
import type { NomadAuthMethodSpec } from '../spec.js';
import { DEFAULT_TOKEN_NAME_FORMAT, authMethodSpecFromWire } from './mapping.js';
import type { WireAuthMethod } from './wire.js';

/**
 * One auth method as a manifest spec. Secrets are never exported: Nomad answers `redacted` for a
 * set client secret and PEM key since 1.9.7 (docs/reference/nomad-api.md §5 Sanitize), and an older server would send
 * the value itself, so the field becomes `{ fromEnv }` whatever came back. Server defaults are left
 * out (TokenNameFormat's default, `Default: false`) and durations are shortened (`1h0m0s` → `1h`).
 */
export function authMethodDocument(
  m: WireAuthMethod,
  env: NameAllocator,
): { spec: NomadAuthMethodSpec; secrets: { path: string; env: string }[] } {
  const mapped = authMethodSpecFromWire(m);
  const head: Omit<NomadAuthMethodSpec, 'config'> = { type: mapped.type, tokenLocality: mapped.tokenLocality, maxTokenTtl: shortDuration(mapped.maxTokenTtl) };
  if (mapped.tokenNameFormat && mapped.tokenNameFormat !== DEFAULT_TOKEN_NAME_FORMAT) head.tokenNameFormat = mapped.tokenNameFormat;
  if (mapped.default === true) head.default = true;
  const config = { ...mapped.config };
  for (const k of ['expirationLeeway', 'notBeforeLeeway', 'clockSkewLeeway'] as const) {
    const v = config[k];
    if (v !== undefined) config[k] = shortDuration(v);
  }
  const secrets: { path: string; env: string }[] = [];
  const c = m.Config;
  const assertion = config.oidcClientAssertion;
  // Validation requires the secret for OIDC and for the `client_secret` key source (docs/manifests.md),
  // so the placeholder is written there even when Nomad holds none.
  const wantsSecret = (c?.OIDCClientSecret ?? '') !== '' || mapped.type === 'OIDC' || assertion?.keySource === 'client_secret';
  if (wantsSecret) {
    const name = env.take(envName(m.Name, 'OIDC_CLIENT_SECRET'));
    config.oidcClientSecret = { fromEnv: name };
    secrets.push({ path: 'spec.config.oidcClientSecret', env: name });
  }
  const pk = c?.OIDCClientAssertion?.PrivateKey;
  if (assertion?.privateKey && pk && (pk.PemKey !== '' || pk.PemKeyFile === '')) {
    const name = env.take(envName(m.Name, 'OIDC_PEM_KEY'));
    assertion.privateKey = { pemKey: { fromEnv: name }, ...assertion.privateKey };
    secrets.push({ path: 'spec.config.oidcClientAssertion.privateKey.pemKey', env: name });
  }
  return { spec: { ...head, config: orderedConfig(config) }, secrets };
}

/** Keys in the order docs/manifests.md lists them, so exported files read like hand-written ones. */
function orderedConfig(config: NomadAuthMethodSpec['config']): NomadAuthMethodSpec['config'] {
  const order = [
    'oidcDiscoveryUrl',
    'oidcClientId',
    'oidcClientSecret',
    'oidcDisableUserInfo',
    'oidcEnablePkce',
    'oidcScopes',
    'oidcClientAssertion',
    'jwtValidationPubKeys',
    'jwksUrl',
    'jwksCaCert',
    'boundAudiences',
    'boundIssuer',
    'allowedRedirectUris',
    'discoveryCaPem',
    'signingAlgs',
    'expirationLeeway',
    'notBeforeLeeway',
    'clockSkewLeeway',
    'claimMappings',
    'listClaimMappings',
    'verboseLogging',
  ] as const;
  const out: Record<string, unknown> = {};
  for (const k of order) if (config[k] !== undefined) out[k] = config[k];
  return out as NomadAuthMethodSpec['config'];
}
