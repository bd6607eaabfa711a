import { DurationError, durationField, parseGoDuration } from './durations.js';
import { GoFields, JObject, type JVal } from './json-decode.js';
import type { JsonOut } from './json-encode.js';
import { rfc3339Nano } from './times.js';
import type { AuthMethod, AuthMethodConfig, ClientAssertion, ClientAssertionKey } from './types.js';

/** What a create/update body carries (times, indexes and Hash in a body are ignored by the sandbox). */
export interface AuthMethodInput {
  Name: string;
  Type: string;
  TokenLocality: string;
  TokenNameFormat: string;
  MaxTokenTTL: number;
  Default: boolean;
  Config: AuthMethodConfig | null;
}

/** Go's %v for the leeway type error (`unexpected ExpirationLeeway type: true`). */
function goV(v: JVal): string {
  if (v === null) return '<nil>';
  if (Array.isArray(v)) return `[${v.map(goV).join(' ')}]`;
  if (v instanceof JObject) return `map[${[...v.entries].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, x]) => `${k}:${goV(x)}`).join(' ')}]`;
  return String(v);
}

/** Leeways: `""` is 0, a number is ns, a string is a Go duration, anything else is a 400 (docs/reference/nomad-api.md §1.3). */
function leeway(f: GoFields, o: JObject, name: string): number {
  const v = o.get(name);
  if (v === undefined || v === null) return 0;
  if (typeof v === 'number') return Math.trunc(v);
  if (typeof v === 'string') {
    if (v === '') return 0;
    try {
      return parseGoDuration(v);
    } catch (e) {
      f.fail((e as Error).message);
      return 0;
    }
  }
  f.fail(`unexpected ${name} type: ${goV(v)}`);
  return 0;
}

function decodeKey(f: GoFields, o: JObject): ClientAssertionKey {
  const p = 'Config.OIDCClientAssertion.PrivateKey.';
  return {
    PemKey: f.string(o, 'PemKey', `${p}PemKey`),
    PemKeyFile: f.string(o, 'PemKeyFile', `${p}PemKeyFile`),
    KeyIDHeader: f.string(o, 'KeyIDHeader', `${p}KeyIDHeader`),
    PemCert: f.string(o, 'PemCert', `${p}PemCert`),
    PemCertFile: f.string(o, 'PemCertFile', `${p}PemCertFile`),
    KeyID: f.string(o, 'KeyID', `${p}KeyID`),
  };
}

function decodeAssertion(f: GoFields, o: JObject): ClientAssertion {
  const p = 'Config.OIDCClientAssertion.';
  const key = f.object(o, 'PrivateKey', 'structs.OIDCClientAssertionKey', `${p}PrivateKey`);
  return {
    KeySource: f.string(o, 'KeySource', `${p}KeySource`),
    Audience: f.strings(o, 'Audience', `${p}Audience`),
    PrivateKey: key ? decodeKey(f, key) : null,
    ExtraHeaders: f.stringMap(o, 'ExtraHeaders', `${p}ExtraHeaders`),
    KeyAlgorithm: f.string(o, 'KeyAlgorithm', `${p}KeyAlgorithm`),
    ClientSecret: '', // server-only; Canonicalize copies OIDCClientSecret into it (docs/reference/nomad-api.md §1.2)
  };
}

function decodeConfig(f: GoFields, o: JObject): AuthMethodConfig {
  const s = (n: keyof AuthMethodConfig) => f.string(o, n, `Config.${n}`);
  const b = (n: keyof AuthMethodConfig) => f.bool(o, n, `Config.${n}`);
  const l = (n: keyof AuthMethodConfig) => f.strings(o, n, `Config.${n}`);
  const m = (n: keyof AuthMethodConfig) => f.stringMap(o, n, `Config.${n}`);
  const ca = f.object(o, 'OIDCClientAssertion', 'structs.OIDCClientAssertion', 'Config.OIDCClientAssertion');
  const cfg: AuthMethodConfig = {
    JWTValidationPubKeys: l('JWTValidationPubKeys'),
    JWKSURL: s('JWKSURL'),
    OIDCDiscoveryURL: s('OIDCDiscoveryURL'),
    OIDCClientID: s('OIDCClientID'),
    OIDCClientSecret: s('OIDCClientSecret'),
    OIDCClientAssertion: ca ? decodeAssertion(f, ca) : null,
    OIDCEnablePKCE: b('OIDCEnablePKCE'),
    OIDCDisableUserInfo: b('OIDCDisableUserInfo'),
    OIDCScopes: l('OIDCScopes'),
    BoundAudiences: l('BoundAudiences'),
    BoundIssuer: l('BoundIssuer'),
    AllowedRedirectURIs: l('AllowedRedirectURIs'),
    DiscoveryCaPem: l('DiscoveryCaPem'),
    JWKSCACert: s('JWKSCACert'),
    SigningAlgs: l('SigningAlgs'),
    ExpirationLeeway: 0,
    NotBeforeLeeway: 0,
    ClockSkewLeeway: 0,
    ClaimMappings: m('ClaimMappings'),
    ListClaimMappings: m('ListClaimMappings'),
    VerboseLogging: b('VerboseLogging'),
  };
  // The config's own UnmarshalJSON handles the leeways after the plain fields, in this order (S).
  cfg.ExpirationLeeway = leeway(f, o, 'ExpirationLeeway');
  cfg.NotBeforeLeeway = leeway(f, o, 'NotBeforeLeeway');
  cfg.ClockSkewLeeway = leeway(f, o, 'ClockSkewLeeway');
  return cfg;
}

/**
 * MaxTokenTTL: a string goes through time.ParseDuration, so `""` is `time: invalid duration ""`; a number is ns;
 * null or any other type is silently ignored (docs/reference/nomad-api.md §1.3).
 */
function maxTokenTtl(f: GoFields, o: JObject): number {
  const v = o.get('MaxTokenTTL');
  if (typeof v === 'number') return Math.trunc(v);
  if (typeof v !== 'string') return 0;
  try {
    return parseGoDuration(v);
  } catch (e) {
    if (e instanceof DurationError) f.fail(e.message);
    return 0;
  }
}

export function decodeAuthMethod(body: JVal): AuthMethodInput {
  const f = new GoFields('ACLAuthMethod');
  const o = f.root(body);
  const cfg = f.object(o, 'Config', 'structs.ACLAuthMethodConfig');
  const config = cfg ? decodeConfig(f, cfg) : null;
  const input: AuthMethodInput = {
    Name: f.string(o, 'Name'),
    Type: f.string(o, 'Type'),
    TokenLocality: f.string(o, 'TokenLocality'),
    TokenNameFormat: f.string(o, 'TokenNameFormat'),
    MaxTokenTTL: 0,
    Default: f.bool(o, 'Default'),
    Config: config,
  };
  input.MaxTokenTTL = maxTokenTtl(f, o);
  f.finish();
  return input;
}

const REDACTED = 'redacted';

/** encoding/json writes map keys sorted. */
function sortedMap(m: Record<string, string> | null): JsonOut {
  if (!m) return null;
  const out: Record<string, JsonOut> = {};
  for (const k of Object.keys(m).sort()) out[k] = m[k] ?? '';
  return out;
}

function assertionJson(a: ClientAssertion): JsonOut {
  return {
    KeySource: a.KeySource,
    Audience: a.Audience,
    PrivateKey: a.PrivateKey
      ? {
          PemKey: REDACTED,
          PemKeyFile: a.PrivateKey.PemKeyFile,
          KeyIDHeader: a.PrivateKey.KeyIDHeader,
          PemCert: a.PrivateKey.PemCert,
          PemCertFile: a.PrivateKey.PemCertFile,
          KeyID: a.PrivateKey.KeyID,
        }
      : null,
    ExtraHeaders: sortedMap(a.ExtraHeaders),
    KeyAlgorithm: a.KeyAlgorithm,
    ClientSecret: REDACTED,
  };
}

/**
 * The config as Sanitize() + MarshalJSON write it (docs/reference/nomad-api.md §1.2, §5): leeways first, then struct order;
 * OIDCClientSecret (when set), the assertion's ClientSecret and PrivateKey.PemKey read `redacted`.
 */
function configJson(c: AuthMethodConfig): JsonOut {
  return {
    ExpirationLeeway: durationField(c.ExpirationLeeway),
    NotBeforeLeeway: durationField(c.NotBeforeLeeway),
    ClockSkewLeeway: durationField(c.ClockSkewLeeway),
    JWTValidationPubKeys: c.JWTValidationPubKeys,
    JWKSURL: c.JWKSURL,
    OIDCDiscoveryURL: c.OIDCDiscoveryURL,
    OIDCClientID: c.OIDCClientID,
    OIDCClientSecret: c.OIDCClientSecret === '' ? '' : REDACTED,
    OIDCClientAssertion: c.OIDCClientAssertion ? assertionJson(c.OIDCClientAssertion) : null,
    OIDCEnablePKCE: c.OIDCEnablePKCE,
    OIDCDisableUserInfo: c.OIDCDisableUserInfo,
    OIDCScopes: c.OIDCScopes,
    BoundAudiences: c.BoundAudiences,
    BoundIssuer: c.BoundIssuer,
    AllowedRedirectURIs: c.AllowedRedirectURIs,
    DiscoveryCaPem: c.DiscoveryCaPem,
    JWKSCACert: c.JWKSCACert,
    SigningAlgs: c.SigningAlgs,
    ClaimMappings: sortedMap(c.ClaimMappings),
    ListClaimMappings: sortedMap(c.ListClaimMappings),
    VerboseLogging: c.VerboseLogging,
  };
}

/** GET / create / update body, sanitized, in the real field order (MaxTokenTTL first, docs/reference/nomad-api.md §1.2). */
export function authMethodJson(m: AuthMethod): JsonOut {
  return {
    MaxTokenTTL: durationField(m.MaxTokenTTL),
    Name: m.Name,
    Type: m.Type,
    TokenLocality: m.TokenLocality,
    TokenNameFormat: m.TokenNameFormat,
    Default: m.Default,
    Config: m.Config ? configJson(m.Config) : null,
    Hash: m.Hash,
    CreateTime: rfc3339Nano(m.CreateTime),
    ModifyTime: rfc3339Nano(m.ModifyTime),
    CreateIndex: m.CreateIndex,
    ModifyIndex: m.ModifyIndex,
  };
}

/** List stub (docs/reference/nomad-api.md §2). */
export function authMethodStubJson(m: AuthMethod): JsonOut {
  return { Name: m.Name, Type: m.Type, Default: m.Default, Hash: m.Hash, CreateIndex: m.CreateIndex, ModifyIndex: m.ModifyIndex };
}
