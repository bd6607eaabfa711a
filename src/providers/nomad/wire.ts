import { ConvergeError } from '../../diagnostics/errors.js';

/*
 * Nomad's JSON shapes for ACL auth methods and binding rules (docs/reference/nomad-api.md §1.2, §2, §10),
 * and hand-written checks of every response at the boundary: a response that does not have the
 * shape below is a ConvergeError `nomad.bad-response` naming the field, never a crash deeper in.
 *
 * Checks are lenient where the server is: nil slices and maps come back as `null` (§1.2), fields
 * added in later versions may be missing on older servers (§1.2 "Version that added each field"),
 * durations may be strings or (old servers, §12 #15960) nanosecond numbers.
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

export interface WireBindingRuleStub {
  ID: string;
  Description: string;
  AuthMethod: string;
  Hash: string;
  CreateIndex: number;
  ModifyIndex: number;
}

export interface WireBindingRule extends WireBindingRuleStub {
  Selector: string;
  BindType: string;
  BindName: string;
}

export interface WireBindingRuleRequest {
  ID?: string;
  Description: string;
  AuthMethod: string;
  Selector: string;
  BindType: string;
  BindName: string;
}

export function badResponse(what: string, detail: string): ConvergeError {
  return new ConvergeError('nomad.bad-response', `unexpected response from Nomad for ${what}: ${detail}`, {
    source: 'remote',
    hint: 'check that the address points at a Nomad agent (≥ 1.5) and not at a proxy or another service',
  });
}

export function decodeJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // Not quoted: it is someone else's text (a proxy's or another service's page), not Nomad's words.
    throw badResponse(what, `the body is not JSON (${text.length} bytes)`);
  }
}

export type Obj = Record<string, unknown>;

/** Field readers that name the offending path in their error. */
export class Reader {
  constructor(readonly what: string) {}

  object(v: unknown, path: string): Obj {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) throw badResponse(this.what, `${path} is not an object`);
    return v as Obj;
  }

  array(v: unknown, path: string): unknown[] {
    if (!Array.isArray(v)) throw badResponse(this.what, `${path} is not an array`);
    return v;
  }

  string(o: Obj, key: string, path: string, optional = false): string {
    const v = o[key];
    if (v === undefined || v === null) {
      if (optional) return '';
      throw badResponse(this.what, `${path}${key} is missing`);
    }
    if (typeof v !== 'string') throw badResponse(this.what, `${path}${key} is not a string`);
    return v;
  }

  bool(o: Obj, key: string, path: string): boolean {
    const v = o[key];
    // Fields newer than the server are absent: Go's zero value.
    if (v === undefined || v === null) return false;
    if (typeof v !== 'boolean') throw badResponse(this.what, `${path}${key} is not a boolean`);
    return v;
  }

  number(o: Obj, key: string, path: string): number {
    const v = o[key];
    if (v === undefined || v === null) return 0;
    if (typeof v !== 'number') throw badResponse(this.what, `${path}${key} is not a number`);
    return v;
  }

  duration(o: Obj, key: string, path: string): string | number {
    const v = o[key];
    if (v === undefined || v === null) return '';
    if (typeof v !== 'string' && typeof v !== 'number') throw badResponse(this.what, `${path}${key} is not a duration`);
    return v;
  }

  strings(o: Obj, key: string, path: string): string[] | null {
    const v = o[key];
    if (v === undefined || v === null) return null;
    const a = this.array(v, `${path}${key}`);
    if (!a.every((x) => typeof x === 'string')) throw badResponse(this.what, `${path}${key} holds a non-string`);
    return a as string[];
  }

  stringMap(o: Obj, key: string, path: string): Record<string, string> | null {
    const v = o[key];
    if (v === undefined || v === null) return null;
    const m = this.object(v, `${path}${key}`);
    const out: Record<string, string> = {};
    // ClaimMappings values are strings on the wire (docs/reference/nomad-api.md "Spec versus real server": returned as strings).
    for (const [k, x] of Object.entries(m)) {
      if (typeof x !== 'string') throw badResponse(this.what, `${path}${key}.${k} is not a string`);
      out[k] = x;
    }
    return out;
  }
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

export function parseBindingRuleStubs(body: unknown): WireBindingRuleStub[] {
  const r = new Reader('the binding rule list');
  return r.array(body, 'body').map((x, i) => {
    const o = r.object(x, `[${i}]`);
    const p = `[${i}].`;
    return {
      ID: r.string(o, 'ID', p),
      Description: r.string(o, 'Description', p, true),
      AuthMethod: r.string(o, 'AuthMethod', p, true),
      Hash: r.string(o, 'Hash', p, true),
      CreateIndex: r.number(o, 'CreateIndex', p),
      ModifyIndex: r.number(o, 'ModifyIndex', p),
    };
  });
}

export function parseBindingRule(body: unknown, what: string): WireBindingRule {
  const r = new Reader(what);
  const o = r.object(body, 'body');
  return {
    ID: r.string(o, 'ID', ''),
    Description: r.string(o, 'Description', '', true),
    AuthMethod: r.string(o, 'AuthMethod', '', true),
    Selector: r.string(o, 'Selector', '', true),
    BindType: r.string(o, 'BindType', '', true),
    BindName: r.string(o, 'BindName', '', true),
    Hash: r.string(o, 'Hash', '', true),
    CreateIndex: r.number(o, 'CreateIndex', ''),
    ModifyIndex: r.number(o, 'ModifyIndex', ''),
  };
}
