import { ConvergeError } from '../../../diagnostics/errors.js';
import {
  canonicalDuration,
  putDuration,
  putMap,
  putSet,
  putString,
  putTrue,
  type Fields,
} from '../../../providers/nomad/mapping.js';
import type { NomadAuthMethodConfigSpec, NomadAuthMethodSpec } from '../spec.js';
import type { WireAuthMethod, WireAuthMethodConfig, WireAuthMethodRequest, WireClientAssertion } from './wire.js';

/*
 * Auth methods, wire ↔ manifest, through the normalisers of src/providers/nomad/mapping.ts. Paths are
 * manifest style (`type`, `maxTokenTtl`, `config.oidcClientId`, `config.claimMappings`). Top-level `type`,
 * `tokenLocality`, `maxTokenTtl`, `tokenNameFormat` and `default` are always present.
 */

/** Server default when TokenNameFormat is unset (docs/reference/nomad-api.md §3.1 Canonicalize; terraform-provider-nomad#442). */
export const DEFAULT_TOKEN_NAME_FORMAT = '${auth_method_type}-${auth_method_name}';

export const SECRET_PATHS = {
  oidcClientSecret: 'config.oidcClientSecret',
  pemKey: 'config.oidcClientAssertion.privateKey.pemKey',
} as const;

/**
 * KeyAlgorithm the server fills in when it is left empty: `HS256` for the `client_secret` key
 * source, `RS256` for `nomad` and `private_key` (Nomad 1.10 OIDCClientAssertion.Canonicalize,
 * code-derived; docs/reference/nomad-api.md §1.2 shows `"KeyAlgorithm":"RS256"` in a read).
 */
export function defaultKeyAlgorithm(keySource: string): string {
  if (keySource === 'client_secret') return 'HS256';
  if (keySource === 'nomad' || keySource === 'private_key') return 'RS256';
  return '';
}

/**
 * KeyIDHeader the server fills in when it is left empty: `kid` when KeyID is set, `x5t#S256` when a
 * certificate is given (which wins), else nothing (OIDCClientAssertionKey.Canonicalize, §3.3).
 */
export function defaultKeyIdHeader(k: { keyId?: string | undefined; pemCert?: string | undefined; pemCertFile?: string | undefined }): string {
  if (k.pemCert || k.pemCertFile) return 'x5t#S256';
  if (k.keyId) return 'kid';
  return '';
}

/** Normalised, non-sensitive fields of an auth method spec (desired, or live mapped back). */
export function authMethodFields(spec: NomadAuthMethodSpec): Fields {
  const out: Fields = {
    type: spec.type,
    tokenLocality: spec.tokenLocality,
    maxTokenTtl: canonicalDuration(spec.maxTokenTtl),
    // Unset means the server default, which the server writes into the object (§3.1).
    tokenNameFormat: spec.tokenNameFormat === undefined || spec.tokenNameFormat === '' ? DEFAULT_TOKEN_NAME_FORMAT : spec.tokenNameFormat,
    // Default is never merged: absent means false (§4).
    default: spec.default === true,
  };
  const c = spec.config;
  putString(out, 'config.oidcDiscoveryUrl', c.oidcDiscoveryUrl);
  putString(out, 'config.oidcClientId', c.oidcClientId);
  putTrue(out, 'config.oidcDisableUserInfo', c.oidcDisableUserInfo);
  putTrue(out, 'config.oidcEnablePkce', c.oidcEnablePkce);
  putSet(out, 'config.oidcScopes', c.oidcScopes);
  putSet(out, 'config.jwtValidationPubKeys', c.jwtValidationPubKeys);
  putString(out, 'config.jwksUrl', c.jwksUrl);
  putString(out, 'config.jwksCaCert', c.jwksCaCert);
  putSet(out, 'config.boundAudiences', c.boundAudiences);
  putSet(out, 'config.boundIssuer', c.boundIssuer);
  putSet(out, 'config.allowedRedirectUris', c.allowedRedirectUris);
  putSet(out, 'config.discoveryCaPem', c.discoveryCaPem);
  putSet(out, 'config.signingAlgs', c.signingAlgs);
  // Leeways: `""`, `0`, `0s` and absent are all zero (§1.3).
  putDuration(out, 'config.expirationLeeway', c.expirationLeeway);
  putDuration(out, 'config.notBeforeLeeway', c.notBeforeLeeway);
  putDuration(out, 'config.clockSkewLeeway', c.clockSkewLeeway);
  putMap(out, 'config.claimMappings', c.claimMappings);
  putMap(out, 'config.listClaimMappings', c.listClaimMappings);
  putTrue(out, 'config.verboseLogging', c.verboseLogging);
  const a = c.oidcClientAssertion;
  if (a !== undefined) {
    const p = 'config.oidcClientAssertion';
    out[`${p}.keySource`] = a.keySource;
    // Nomad fills an empty Audience with the discovery URL (ACLAuthMethodConfig.Canonicalize, §3.3).
    putSet(out, `${p}.audience`, (a.audience ?? []).length > 0 ? a.audience : c.oidcDiscoveryUrl ? [c.oidcDiscoveryUrl] : []);
    putString(out, `${p}.keyAlgorithm`, a.keyAlgorithm || defaultKeyAlgorithm(a.keySource));
    putMap(out, `${p}.extraHeaders`, a.extraHeaders);
    const k = a.privateKey;
    if (k !== undefined) {
      // pemKey is a secret: compared by digest only (SECRET_PATHS), never a field.
      putString(out, `${p}.privateKey.pemKeyFile`, k.pemKeyFile);
      putString(out, `${p}.privateKey.keyIdHeader`, k.keyIdHeader || defaultKeyIdHeader(k));
      putString(out, `${p}.privateKey.pemCert`, k.pemCert);
      putString(out, `${p}.privateKey.pemCertFile`, k.pemCertFile);
      putString(out, `${p}.privateKey.keyId`, k.keyId);
    }
  }
  return out;
}

const orUndefined = (s: string): string | undefined => (s === '' ? undefined : s);
const listOrUndefined = (l: string[] | null): string[] | undefined => (l === null || l.length === 0 ? undefined : l);
const mapOrUndefined = (m: Record<string, string> | null): Record<string, string> | undefined =>
  m === null || Object.keys(m).length === 0 ? undefined : m;
const durationOrUndefined = (d: string | number): string | undefined => orUndefined(canonicalDuration(d));

function assertionSpecFromWire(a: WireClientAssertion): NonNullable<NomadAuthMethodConfigSpec['oidcClientAssertion']> {
  const out: NonNullable<NomadAuthMethodConfigSpec['oidcClientAssertion']> = {
    keySource: a.KeySource as 'nomad' | 'private_key' | 'client_secret',
  };
  if (listOrUndefined(a.Audience)) out.audience = a.Audience ?? [];
  if (a.KeyAlgorithm !== '') out.keyAlgorithm = a.KeyAlgorithm;
  if (mapOrUndefined(a.ExtraHeaders)) out.extraHeaders = a.ExtraHeaders ?? {};
  const k = a.PrivateKey;
  if (k !== null) {
    // PemKey comes back `redacted` (§5) and is dropped: secrets are never read back.
    out.privateKey = {
      ...(k.PemKeyFile ? { pemKeyFile: k.PemKeyFile } : {}),
      ...(k.KeyIDHeader ? { keyIdHeader: k.KeyIDHeader as 'kid' | 'x5t' | 'x5t#S256' } : {}),
      ...(k.PemCert ? { pemCert: k.PemCert } : {}),
      ...(k.PemCertFile ? { pemCertFile: k.PemCertFile } : {}),
      ...(k.KeyID ? { keyId: k.KeyID } : {}),
    };
  }
  return out;
}

function configSpecFromWire(c: WireAuthMethodConfig | null): NomadAuthMethodConfigSpec {
  if (c === null) return {};
  const out: NomadAuthMethodConfigSpec = {};
  const set = <K extends keyof NomadAuthMethodConfigSpec>(k: K, v: NomadAuthMethodConfigSpec[K] | undefined) => {
    if (v !== undefined) out[k] = v;
  };
  set('oidcDiscoveryUrl', orUndefined(c.OIDCDiscoveryURL));
  set('oidcClientId', orUndefined(c.OIDCClientID));
  // OIDCClientSecret is deliberately not mapped: reads return `redacted` (§5).
  set('oidcDisableUserInfo', c.OIDCDisableUserInfo || undefined);
  set('oidcEnablePkce', c.OIDCEnablePKCE || undefined);
  set('oidcScopes', listOrUndefined(c.OIDCScopes));
  set('jwtValidationPubKeys', listOrUndefined(c.JWTValidationPubKeys));
  set('jwksUrl', orUndefined(c.JWKSURL));
  set('jwksCaCert', orUndefined(c.JWKSCACert));
  set('boundAudiences', listOrUndefined(c.BoundAudiences));
  set('boundIssuer', listOrUndefined(c.BoundIssuer));
  set('allowedRedirectUris', listOrUndefined(c.AllowedRedirectURIs));
  set('discoveryCaPem', listOrUndefined(c.DiscoveryCaPem));
  set('signingAlgs', listOrUndefined(c.SigningAlgs));
  set('expirationLeeway', durationOrUndefined(c.ExpirationLeeway));
  set('notBeforeLeeway', durationOrUndefined(c.NotBeforeLeeway));
  set('clockSkewLeeway', durationOrUndefined(c.ClockSkewLeeway));
  set('claimMappings', mapOrUndefined(c.ClaimMappings));
  set('listClaimMappings', mapOrUndefined(c.ListClaimMappings));
  set('verboseLogging', c.VerboseLogging || undefined);
  if (c.OIDCClientAssertion !== null) out.oidcClientAssertion = assertionSpecFromWire(c.OIDCClientAssertion);
  return out;
}

/** A live auth method in the manifest's shape, without secrets. */
export function authMethodSpecFromWire(m: WireAuthMethod): NomadAuthMethodSpec {
  return {
    type: m.Type as NomadAuthMethodSpec['type'],
    tokenLocality: m.TokenLocality as NomadAuthMethodSpec['tokenLocality'],
    maxTokenTtl: canonicalDuration(m.MaxTokenTTL),
    tokenNameFormat: m.TokenNameFormat,
    default: m.Default,
    config: configSpecFromWire(m.Config),
  };
}

export function liveAuthMethodFields(m: WireAuthMethod): Fields {
  return authMethodFields(authMethodSpecFromWire(m));
}

/** Resolved secret values for a write; they come only from the manifest, never from a read (§5). */
export interface AuthMethodSecrets {
  oidcClientSecret?: string;
  pemKey?: string;
}

/**
 * The request body for `POST /v1/acl/auth-method/:name`. Every field is sent on every write:
 * - `Default` explicitly, since an omitted Default is cleared (§3.1, §4);
 * - the whole `Config`, since a sent Config replaces the stored one with no deep merge (§3.1);
 * - `TokenNameFormat` as its effective value, since a blank one keeps the stored value (§3.1 Merge),
 *   which would make removing a custom format from the manifest impossible;
 * - `MaxTokenTTL` as a Go duration string (§1.3; a number would be read as nanoseconds).
 */
/**
 * A planned auth method body (built with no secrets, intent.ts) with its secrets filled in, where
 * authMethodRequest puts them: `Config.OIDCClientSecret` and `Config.OIDCClientAssertion.PrivateKey.PemKey`.
 */
export function withAuthMethodSecrets(body: WireAuthMethodRequest, secrets: AuthMethodSecrets): WireAuthMethodRequest {
  const config = { ...body.Config } as Record<string, unknown>;
  if (secrets.oidcClientSecret !== undefined) config.OIDCClientSecret = secrets.oidcClientSecret;
  const assertion = config.OIDCClientAssertion as { PrivateKey?: Record<string, unknown> | null } | null | undefined;
  if (secrets.pemKey !== undefined && assertion?.PrivateKey) {
    config.OIDCClientAssertion = { ...assertion, PrivateKey: { ...assertion.PrivateKey, PemKey: secrets.pemKey } };
  }
  return { ...body, Config: config as WireAuthMethodRequest['Config'] };
}

export function authMethodRequest(name: string, spec: NomadAuthMethodSpec, secrets: AuthMethodSecrets): WireAuthMethodRequest {
  const c = spec.config;
  const a = c.oidcClientAssertion;
  const config: Record<string, unknown> = {
    OIDCDiscoveryURL: c.oidcDiscoveryUrl ?? '',
    OIDCClientID: c.oidcClientId ?? '',
    OIDCClientSecret: secrets.oidcClientSecret ?? '',
    OIDCDisableUserInfo: c.oidcDisableUserInfo ?? false,
    OIDCEnablePKCE: c.oidcEnablePkce ?? false,
    OIDCScopes: c.oidcScopes ?? null,
    JWTValidationPubKeys: c.jwtValidationPubKeys ?? null,
    JWKSURL: c.jwksUrl ?? '',
    JWKSCACert: c.jwksCaCert ?? '',
    BoundAudiences: c.boundAudiences ?? null,
    BoundIssuer: c.boundIssuer ?? null,
    AllowedRedirectURIs: c.allowedRedirectUris ?? null,
    DiscoveryCaPem: c.discoveryCaPem ?? null,
    SigningAlgs: c.signingAlgs ?? null,
    // Leeways: `""` means 0 on the server (§1.3).
    ExpirationLeeway: canonicalDuration(c.expirationLeeway),
    NotBeforeLeeway: canonicalDuration(c.notBeforeLeeway),
    ClockSkewLeeway: canonicalDuration(c.clockSkewLeeway),
    ClaimMappings: c.claimMappings ?? null,
    ListClaimMappings: c.listClaimMappings ?? null,
    VerboseLogging: c.verboseLogging ?? false,
    OIDCClientAssertion:
      a === undefined
        ? null
        : {
            KeySource: a.keySource,
            Audience: a.audience ?? null,
            KeyAlgorithm: a.keyAlgorithm ?? '',
            ExtraHeaders: a.extraHeaders ?? null,
            PrivateKey:
              a.privateKey === undefined
                ? null
                : {
                    PemKey: secrets.pemKey ?? '',
                    PemKeyFile: a.privateKey.pemKeyFile ?? '',
                    KeyIDHeader: a.privateKey.keyIdHeader ?? '',
                    PemCert: a.privateKey.pemCert ?? '',
                    PemCertFile: a.privateKey.pemCertFile ?? '',
                    KeyID: a.privateKey.keyId ?? '',
                  },
          },
  };
  const ttl = canonicalDuration(spec.maxTokenTtl);
  if (ttl === '') {
    // Never sent as "": the server answers 400 `time: invalid duration ""` (docs/reference/nomad-api.md §1.3, Surprises 1),
    // and a zero TTL fails its bounds check anyway (§3.2). Manifest validation stops this first.
    throw new ConvergeError('nomad.auth-method.ttl', `NomadAuthMethod/${name}: maxTokenTtl must be a duration greater than zero`, {
      source: 'user',
      hint: 'write a Go duration like 1h (Nomad accepts 1m to 24h by default)',
    });
  }
  return {
    Name: name,
    Type: spec.type,
    TokenLocality: spec.tokenLocality,
    TokenNameFormat: spec.tokenNameFormat || DEFAULT_TOKEN_NAME_FORMAT,
    MaxTokenTTL: ttl,
    Default: spec.default === true,
    Config: config,
  };
}
