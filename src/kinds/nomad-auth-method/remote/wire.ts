import { Reader } from '../../../providers/nomad/wire.js';

/*
 * Nomad's JSON for ACL auth methods (docs/reference/nomad-api.md §1.2, §2), checked at the boundary: a
 * response of another shape is a `nomad.bad-response` naming the field. Lenient where the server is: nil
 * slices and maps come back as `null` (§1.2), fields added later may be missing on older servers, durations
 * may be strings or (old servers, §12 #15960) nanosecond numbers.
 */

export interface WireAuthMethodStub {
  Name: string;
  Type: string;
  Default: boolean;
  Hash: string;
  CreateIndex: number;
  ModifyIndex: number;
}

export interface WireClientAssertion {
  KeySource: string;
  Audience: string[] | null;
  PrivateKey: WirePrivateKey | null;
  ExtraHeaders: Record<string, string> | null;
  KeyAlgorithm: string;
}

export interface WirePrivateKey {
  PemKey: string;
  PemKeyFile: string;
  KeyIDHeader: string;
  PemCert: string;
  PemCertFile: string;
  KeyID: string;
}

export interface WireAuthMethodConfig {
  JWTValidationPubKeys: string[] | null;
  JWKSURL: string;
  JWKSCACert: string;
  OIDCDiscoveryURL: string;
  OIDCClientID: string;
  /** `redacted` on reads since 1.9.7 (§5): never sent back. */
  OIDCClientSecret: string;
  OIDCClientAssertion: WireClientAssertion | null;
  OIDCEnablePKCE: boolean;
  OIDCDisableUserInfo: boolean;
  OIDCScopes: string[] | null;
  BoundAudiences: string[] | null;
  BoundIssuer: string[] | null;
  AllowedRedirectURIs: string[] | null;
  DiscoveryCaPem: string[] | null;
  SigningAlgs: string[] | null;
  /** Go duration text, `""` for zero (§1.3); older servers may send nanoseconds. */
  ExpirationLeeway: string | number;
  NotBeforeLeeway: string | number;
  ClockSkewLeeway: string | number;
  ClaimMappings: Record<string, string> | null;
  ListClaimMappings: Record<string, string> | null;
  VerboseLogging: boolean;
}

export interface WireAuthMethod {
  Name: string;
  Type: string;
  TokenLocality: string;
  TokenNameFormat: string;
  /** Go duration text (`1h0m0s`), `""` for zero (§1.3). */
  MaxTokenTTL: string | number;
  Default: boolean;
  Config: WireAuthMethodConfig | null;
  Hash: string;
  CreateIndex: number;
  ModifyIndex: number;
}

/** Body of `POST /v1/acl/auth-method/:name`: every user-set field, always (§3.1, §4). */
export interface WireAuthMethodRequest {
  Name: string;
  Type: string;
  TokenLocality: string;
  TokenNameFormat: string;
  MaxTokenTTL: string;
  Default: boolean;
  Config: Record<string, unknown>;
}

export function parseAuthMethodStubs(body: unknown): WireAuthMethodStub[] {
  const r = new Reader('the auth method list');
  // The list is `[]` when empty, never null (§2; every ACL list handler of command/agent/acl_endpoint.go
  // turns a nil list into an empty one): a null is an unexpected answer, never "every object is gone".
  return r.array(body, 'body').map((x, i) => {
    const o = r.object(x, `[${i}]`);
    return {
      Name: r.string(o, 'Name', `[${i}].`),
      Type: r.string(o, 'Type', `[${i}].`, true),
      Default: r.bool(o, 'Default', `[${i}].`),
      Hash: r.string(o, 'Hash', `[${i}].`, true),
      CreateIndex: r.number(o, 'CreateIndex', `[${i}].`),
      ModifyIndex: r.number(o, 'ModifyIndex', `[${i}].`),
    };
  });
}

function parseConfig(r: Reader, v: unknown): WireAuthMethodConfig | null {
  if (v === undefined || v === null) return null;
  const p = 'Config.';
  const c = r.object(v, 'Config');
  return {
    JWTValidationPubKeys: r.strings(c, 'JWTValidationPubKeys', p),
    JWKSURL: r.string(c, 'JWKSURL', p, true),
    JWKSCACert: r.string(c, 'JWKSCACert', p, true),
    OIDCDiscoveryURL: r.string(c, 'OIDCDiscoveryURL', p, true),
    OIDCClientID: r.string(c, 'OIDCClientID', p, true),
    OIDCClientSecret: r.string(c, 'OIDCClientSecret', p, true),
    OIDCClientAssertion: parseAssertion(r, c.OIDCClientAssertion),
    OIDCEnablePKCE: r.bool(c, 'OIDCEnablePKCE', p),
    OIDCDisableUserInfo: r.bool(c, 'OIDCDisableUserInfo', p),
    OIDCScopes: r.strings(c, 'OIDCScopes', p),
    BoundAudiences: r.strings(c, 'BoundAudiences', p),
    BoundIssuer: r.strings(c, 'BoundIssuer', p),
    AllowedRedirectURIs: r.strings(c, 'AllowedRedirectURIs', p),
    DiscoveryCaPem: r.strings(c, 'DiscoveryCaPem', p),
    SigningAlgs: r.strings(c, 'SigningAlgs', p),
    ExpirationLeeway: r.duration(c, 'ExpirationLeeway', p),
    NotBeforeLeeway: r.duration(c, 'NotBeforeLeeway', p),
    ClockSkewLeeway: r.duration(c, 'ClockSkewLeeway', p),
    ClaimMappings: r.stringMap(c, 'ClaimMappings', p),
    ListClaimMappings: r.stringMap(c, 'ListClaimMappings', p),
    VerboseLogging: r.bool(c, 'VerboseLogging', p),
  };
}

function parseAssertion(r: Reader, v: unknown): WireClientAssertion | null {
  if (v === undefined || v === null) return null;
  const p = 'Config.OIDCClientAssertion.';
  const a = r.object(v, 'Config.OIDCClientAssertion');
  let privateKey: WirePrivateKey | null = null;
  if (a.PrivateKey !== undefined && a.PrivateKey !== null) {
    const pk = r.object(a.PrivateKey, `${p}PrivateKey`);
    const pp = `${p}PrivateKey.`;
    privateKey = {
      PemKey: r.string(pk, 'PemKey', pp, true),
      PemKeyFile: r.string(pk, 'PemKeyFile', pp, true),
      KeyIDHeader: r.string(pk, 'KeyIDHeader', pp, true),
      PemCert: r.string(pk, 'PemCert', pp, true),
      PemCertFile: r.string(pk, 'PemCertFile', pp, true),
      KeyID: r.string(pk, 'KeyID', pp, true),
    };
  }
  return {
    KeySource: r.string(a, 'KeySource', p, true),
    Audience: r.strings(a, 'Audience', p),
    PrivateKey: privateKey,
    ExtraHeaders: r.stringMap(a, 'ExtraHeaders', p),
    KeyAlgorithm: r.string(a, 'KeyAlgorithm', p, true),
  };
}

export function parseAuthMethod(body: unknown, name: string): WireAuthMethod {
  const r = new Reader(`auth method ${name}`);
  const o = r.object(body, 'body');
  return {
    Name: r.string(o, 'Name', ''),
    Type: r.string(o, 'Type', '', true),
    TokenLocality: r.string(o, 'TokenLocality', '', true),
    TokenNameFormat: r.string(o, 'TokenNameFormat', '', true),
    MaxTokenTTL: r.duration(o, 'MaxTokenTTL', ''),
    Default: r.bool(o, 'Default', ''),
    Config: parseConfig(r, o.Config),
    Hash: r.string(o, 'Hash', '', true),
    CreateIndex: r.number(o, 'CreateIndex', ''),
    ModifyIndex: r.number(o, 'ModifyIndex', ''),
  };
}
