import type { AuthMethodInput } from './auth-method-wire.js';
import { formatGoDuration } from './durations.js';
import { multierror } from './errors.js';
import { hashParts, mapParts, sortedOrder, type MapOrder } from './hash.js';
import type { AuthMethod, AuthMethodConfig, ClientAssertion } from './types.js';

export const DEFAULT_TOKEN_NAME_FORMAT = '${auth_method_type}-${auth_method_name}';

/**
 * Names: the spec's rule (letters, digits, dashes and underscores, at most 128), which the brief keeps although
 * real 2.0.x servers reject underscores (reference "Spec versus real server").
 */
const VALID_NAME = /^[a-zA-Z0-9_-]{1,128}$/;

/**
 * S `Merge` (docs/reference/nomad-api.md §3.1): blank Type, TokenLocality, TokenNameFormat and MaxTokenTTL take the stored value;
 * Config is one pointer (a non-null one replaces the stored config whole); Default is never merged.
 */
export function merge(input: AuthMethodInput, existing: AuthMethod | undefined): AuthMethodInput {
  if (!existing) return input;
  return {
    ...input,
    Type: input.Type || existing.Type,
    TokenLocality: input.TokenLocality || existing.TokenLocality,
    TokenNameFormat: input.TokenNameFormat || existing.TokenNameFormat,
    MaxTokenTTL: input.MaxTokenTTL || existing.MaxTokenTTL,
    Config: input.Config ?? existing.Config,
  };
}

/** Canonicalize: the TokenNameFormat default, and the client assertion's server-side fields (docs/reference/nomad-api.md §1.2, §3.1). */
export function canonicalize(input: AuthMethodInput): AuthMethodInput {
  const c = input.Config;
  let config = c;
  if (c?.OIDCClientAssertion) {
    const a = c.OIDCClientAssertion;
    // KeyAlgorithm default as in Nomad's OIDCClientAssertion.Canonicalize (code-derived, 1.10).
    const alg = a.KeyAlgorithm || (a.KeySource === 'client_secret' ? 'HS256' : a.KeySource === 'nomad' || a.KeySource === 'private_key' ? 'RS256' : '');
    // An empty Audience inherits the discovery URL (ACLAuthMethodConfig.Canonicalize, docs/reference/nomad-api.md §3.3).
    const audience = a.Audience && a.Audience.length > 0 ? a.Audience : [c.OIDCDiscoveryURL];
    // KeyIDHeader: `kid` for a KeyID, `x5t#S256` for a certificate (OIDCClientAssertionKey.Canonicalize, §3.3).
    const k = a.PrivateKey;
    const key = k && k.KeyIDHeader === '' ? { ...k, KeyIDHeader: k.PemCert !== '' || k.PemCertFile !== '' ? 'x5t#S256' : k.KeyID !== '' ? 'kid' : '' } : k;
    config = { ...c, OIDCClientAssertion: { ...a, Audience: audience, PrivateKey: key, KeyAlgorithm: alg, ClientSecret: c.OIDCClientSecret } };
  }
  return { ...input, TokenNameFormat: input.TokenNameFormat || DEFAULT_TOKEN_NAME_FORMAT, Config: config };
}

function assertionError(a: ClientAssertion): string | undefined {
  if (!a.Audience || a.Audience.length === 0) return 'missing Audience';
  switch (a.KeySource) {
    case 'nomad':
      return undefined;
    case 'private_key': {
      const k = a.PrivateKey;
      if (!k) return 'PrivateKey is required for `private_key` KeySource';
      if (k.PemKey !== '' && k.PemKeyFile !== '') return 'require only one of PemKey or PemKeyFile';
      if (k.PemKey === '' && k.PemKeyFile === '') return 'missing PemKey or PemKeyFile';
      return undefined;
    }
    case 'client_secret':
      return a.ClientSecret === '' ? 'OIDCClientSecret is required for `client_secret` KeySource' : undefined;
    default:
      return `invalid KeySource ${JSON.stringify(a.KeySource)}`;
  }
}

/** ACLAuthMethodConfig.Validate: one error is flattened, several are a nested multierror (docs/reference/nomad-api.md §3.2). */
function configError(type: string, c: AuthMethodConfig | null): string | undefined {
  if (!c) return 'missing auth method Config';
  const errs: string[] = [];
  if (type === 'OIDC') {
    if (c.OIDCDiscoveryURL === '') errs.push('missing OIDCDiscoveryURL');
    if (c.OIDCClientID === '') errs.push('missing OIDCClientID');
    // OIDCClientSecret stays optional, as on the real server (reference "Spec versus real server").
  }
  if (type === 'JWT' && c.OIDCDiscoveryURL === '' && c.JWKSURL === '' && (c.JWTValidationPubKeys ?? []).length === 0) {
    errs.push('JWT auth method requires either OIDCDiscoveryURL, or JWKS URL, or JWTValidationPubKeys set');
  }
  if (c.OIDCClientAssertion) {
    const e = assertionError(c.OIDCClientAssertion);
    if (e) errs.push(`invalid client assertion config: ${e}`);
  }
  if (errs.length === 0) return undefined;
  return errs.length === 1 ? errs[0] : multierror(errs);
}

/** S `Validate`, checks in the reference's order (§3.2). Returns the error list (empty when valid). */
export function validate(m: AuthMethodInput, minTtl: number, maxTtl: number): string[] {
  const errs: string[] = [];
  if (!VALID_NAME.test(m.Name)) errs.push(`invalid name '${m.Name}'`);
  if (m.TokenLocality !== 'local' && m.TokenLocality !== 'global') errs.push(`invalid token locality '${m.TokenLocality}'`);
  if (m.Type !== 'OIDC' && m.Type !== 'JWT') errs.push(`invalid token type '${m.Type}'`);
  const cfg = configError(m.Type, m.Config);
  if (cfg) errs.push(`invalid config: ${cfg}`);
  if (m.MaxTokenTTL < minTtl || m.MaxTokenTTL > maxTtl) {
    errs.push(
      `invalid MaxTokenTTL value '${formatGoDuration(m.MaxTokenTTL)}' (should be between ${formatGoDuration(minTtl)} and ${formatGoDuration(maxTtl)})`,
    );
  }
  return errs;
}

/** Over the user-set fields only, never times or indexes (S `SetHash`); secrets included, so `redacted` written back changes it. */
export function hashAuthMethod(m: AuthMethodInput, order: MapOrder = sortedOrder): string {
  const parts = [m.Name, m.Type, m.TokenLocality, formatGoDuration(m.MaxTokenTTL), m.TokenNameFormat, String(m.Default)];
  const c = m.Config;
  if (c) {
    parts.push(c.JWKSURL, c.JWKSCACert, c.OIDCDiscoveryURL, c.OIDCClientID, c.OIDCClientSecret);
    parts.push(String(c.OIDCEnablePKCE), String(c.OIDCDisableUserInfo), String(c.VerboseLogging));
    parts.push(formatGoDuration(c.ExpirationLeeway), formatGoDuration(c.NotBeforeLeeway), formatGoDuration(c.ClockSkewLeeway));
    for (const list of [c.BoundAudiences, c.BoundIssuer, c.AllowedRedirectURIs, c.DiscoveryCaPem, c.OIDCScopes, c.SigningAlgs, c.JWTValidationPubKeys]) {
      parts.push(...(list ?? []));
    }
    parts.push(...mapParts(c.ClaimMappings, order), ...mapParts(c.ListClaimMappings, order));
    const a = c.OIDCClientAssertion;
    if (a) {
      parts.push(a.KeySource, a.KeyAlgorithm, ...(a.Audience ?? []), ...mapParts(a.ExtraHeaders, order));
      const k = a.PrivateKey;
      if (k) parts.push(k.PemKey, k.PemKeyFile, k.KeyIDHeader, k.PemCert, k.PemCertFile, k.KeyID);
    }
  }
  return hashParts(parts);
}
