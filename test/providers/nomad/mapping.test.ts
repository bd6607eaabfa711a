import { describe, expect, it } from 'vitest';
import { diffFields } from '../../../src/plan/diff.js';
import { canonicalDuration } from '../../../src/providers/nomad/mapping.js';
import { bindingRuleFields, bindingRuleRequest, liveBindingRuleFields, ruleNaturalKey } from '../../../src/kinds/nomad-binding-rule/remote/mapping.js';
import { DEFAULT_TOKEN_NAME_FORMAT, authMethodFields, authMethodRequest, liveAuthMethodFields } from '../../../src/kinds/nomad-auth-method/remote/mapping.js';
import { parseBindingRule } from '../../../src/kinds/nomad-binding-rule/remote/wire.js';
import { parseAuthMethod, type WireAuthMethod } from '../../../src/kinds/nomad-auth-method/remote/wire.js';
import type { NomadAuthMethodSpec } from '../../../src/kinds/nomad-auth-method/spec.js';

/** A read as the real server writes it (docs/reference/nomad-api.md §1.2), secrets redacted. */
function wire(over: Partial<WireAuthMethod> = {}, config: Record<string, unknown> = {}): WireAuthMethod {
  return parseAuthMethod(
    {
      MaxTokenTTL: '1h0m0s',
      Name: 'corp',
      Type: 'OIDC',
      TokenLocality: 'global',
      TokenNameFormat: DEFAULT_TOKEN_NAME_FORMAT,
      Default: false,
      Config: {
        ExpirationLeeway: '',
        NotBeforeLeeway: '',
        ClockSkewLeeway: '',
        JWTValidationPubKeys: null,
        JWKSURL: '',
        OIDCDiscoveryURL: 'https://idp/',
        OIDCClientID: 'abc',
        OIDCClientSecret: 'redacted',
        OIDCClientAssertion: null,
        OIDCEnablePKCE: false,
        OIDCDisableUserInfo: false,
        OIDCScopes: ['groups'],
        BoundAudiences: ['abc'],
        BoundIssuer: null,
        AllowedRedirectURIs: ['http://localhost:4649/oidc/callback'],
        DiscoveryCaPem: null,
        JWKSCACert: '',
        SigningAlgs: null,
        ClaimMappings: { email: 'email' },
        ListClaimMappings: null,
        VerboseLogging: false,
        ...config,
      },
      Hash: 'aGFzaA==',
      CreateTime: '2025-03-01T10:00:00.123456Z',
      ModifyTime: '2025-03-01T10:00:00.123456Z',
      CreateIndex: 12,
      ModifyIndex: 12,
      ...over,
    },
    'corp',
  );
}

const spec = (over: Partial<NomadAuthMethodSpec> = {}, config: NomadAuthMethodSpec['config'] = {}): NomadAuthMethodSpec => ({
  type: 'OIDC',
  tokenLocality: 'global',
  maxTokenTtl: '1h',
  config: {
    oidcDiscoveryUrl: 'https://idp/',
    oidcClientId: 'abc',
    oidcClientSecret: { fromEnv: 'X' },
    oidcScopes: ['groups'],
    boundAudiences: ['abc'],
    allowedRedirectUris: ['http://localhost:4649/oidc/callback'],
    claimMappings: { email: 'email' },
    ...config,
  },
  ...over,
});

const same = (s: NomadAuthMethodSpec, w: WireAuthMethod) => diffFields(liveAuthMethodFields(w), authMethodFields(s));

describe('canonicalDuration (docs/reference/nomad-api.md §1.3)', () => {
  it('1h = 60m = 3600s = 1h0m0s', () => {
    for (const d of ['1h', '60m', '3600s', '1h0m0s', '0.5h30m']) expect(canonicalDuration(d)).toBe('1h0m0s');
  });
  it('zero is "" whichever way it is written', () => {
    for (const d of ['', '0', '0s', '0h0m', 0, null, undefined]) expect(canonicalDuration(d)).toBe('');
  });
  it('nanosecond numbers (old servers) read like strings', () => {
    expect(canonicalDuration(3_600_000_000_000)).toBe('1h0m0s');
    expect(canonicalDuration(90_000_000_000)).toBe('1m30s');
  });
  it('keeps text that is not a duration, so it shows as a difference', () => {
    expect(canonicalDuration('soon')).toBe('soon');
  });
});

describe('auth method normalisation: desired and live agree', () => {
  it('the reference sample equals its manifest', () => {
    expect(same(spec(), wire())).toEqual([]);
  });

  it('maxTokenTtl 1h vs "1h0m0s", 60m vs "1h0m0s"', () => {
    expect(same(spec({ maxTokenTtl: '60m' }), wire())).toEqual([]);
    expect(diffFields(liveAuthMethodFields(wire({ MaxTokenTTL: '2h0m0s' })), authMethodFields(spec()))).toEqual([
      { path: 'maxTokenTtl', before: '2h0m0s', after: '1h0m0s', sensitive: false },
    ]);
  });

  it('unset tokenNameFormat equals the server default (terraform-provider-nomad#442)', () => {
    expect(authMethodFields(spec()).tokenNameFormat).toBe('${auth_method_type}-${auth_method_name}');
    expect(same(spec(), wire())).toEqual([]);
    expect(same(spec({ tokenNameFormat: '' }), wire())).toEqual([]);
  });

  it('unset default is false (Default is never merged, §4)', () => {
    expect(authMethodFields(spec()).default).toBe(false);
    expect(same(spec({ default: false }), wire())).toEqual([]);
    expect(same(spec({ default: true }), wire())).toEqual([{ path: 'default', before: false, after: true, sensitive: false }]);
  });

  it('leeways: "" and 0 and "0s" and unset are the same; 90s = "1m30s"', () => {
    expect(same(spec({}, { expirationLeeway: '0s', notBeforeLeeway: '0' }), wire({}, { ExpirationLeeway: 0, ClockSkewLeeway: '' }))).toEqual([]);
    expect(same(spec({}, { clockSkewLeeway: '90s' }), wire({}, { ClockSkewLeeway: '1m30s' }))).toEqual([]);
  });

  it('null and empty lists and maps are equal', () => {
    expect(same(spec({}, { signingAlgs: [], boundIssuer: [], listClaimMappings: {} }), wire({}, { SigningAlgs: null, BoundIssuer: [], ListClaimMappings: {} }))).toEqual([]);
    expect(authMethodFields(spec({}, { signingAlgs: [] }))['config.signingAlgs']).toBeUndefined();
  });

  it('set-like lists compare as sets', () => {
    const lists = {
      boundAudiences: ['b', 'a'],
      allowedRedirectUris: ['https://z', 'http://localhost:4649/oidc/callback'],
      oidcScopes: ['profile', 'groups'],
      signingAlgs: ['RS256', 'ES256'],
      boundIssuer: ['https://i2', 'https://i1'],
      discoveryCaPem: ['PEM-B', 'PEM-A'],
      jwtValidationPubKeys: ['K2', 'K1'],
    };
    const reversed = Object.fromEntries(Object.entries(lists).map(([k, v]) => [k, [...v].reverse()]));
    const w = wire(
      {},
      {
        BoundAudiences: reversed.boundAudiences,
        AllowedRedirectURIs: reversed.allowedRedirectUris,
        OIDCScopes: reversed.oidcScopes,
        SigningAlgs: reversed.signingAlgs,
        BoundIssuer: reversed.boundIssuer,
        DiscoveryCaPem: reversed.discoveryCaPem,
        JWTValidationPubKeys: reversed.jwtValidationPubKeys,
      },
    );
    expect(same(spec({}, lists), w)).toEqual([]);
    expect(authMethodFields(spec({}, lists))['config.boundAudiences']).toEqual(['a', 'b']);
  });

  it('claim maps: key order does not matter, a changed value is named by key', () => {
    const s = spec({}, { claimMappings: { z: 'zz', email: 'email' } });
    expect(same(s, wire({}, { ClaimMappings: { email: 'email', z: 'zz' } }))).toEqual([]);
    expect(Object.keys(authMethodFields(s)['config.claimMappings'] as object)).toEqual(['email', 'z']);
    expect(same(s, wire({}, { ClaimMappings: { email: 'mail', z: 'zz' } }))).toEqual([
      { path: 'config.claimMappings.email', before: 'mail', after: 'email', sensitive: false },
    ]);
  });

  it('false config booleans equal absent ones (older servers lack the field)', () => {
    const w = wire();
    expect(same(spec({}, { oidcEnablePkce: false, verboseLogging: false }), w)).toEqual([]);
    expect(same(spec({}, { oidcEnablePkce: true }), w)).toEqual([{ path: 'config.oidcEnablePkce', before: null, after: true, sensitive: false }]);
  });

  it('never puts a secret in the fields; `redacted` from a read is dropped', () => {
    const f = { ...liveAuthMethodFields(wire()), ...authMethodFields(spec()) };
    expect(JSON.stringify(f)).not.toContain('redacted');
    expect(Object.keys(f).some((k) => k.includes('Secret') || k.includes('pemKey'))).toBe(false);
  });

  it('client assertion: default KeyAlgorithm by key source, audience as a set, pemKey never a field', () => {
    const s = spec({}, {
      oidcClientAssertion: { keySource: 'private_key', audience: ['b', 'a'], privateKey: { pemKey: { fromFile: 'k.pem' }, keyIdHeader: 'kid', keyId: 'k1' } },
    });
    const w = wire({}, {
      OIDCClientAssertion: {
        KeySource: 'private_key',
        Audience: ['a', 'b'],
        KeyAlgorithm: 'RS256',
        ExtraHeaders: null,
        PrivateKey: { PemKey: 'redacted', PemKeyFile: '', KeyIDHeader: 'kid', PemCert: '', PemCertFile: '', KeyID: 'k1' },
      },
    });
    expect(same(s, w)).toEqual([]);
    expect(authMethodFields(s)['config.oidcClientAssertion.keyAlgorithm']).toBe('RS256');
    expect(authMethodFields(spec({}, { oidcClientAssertion: { keySource: 'client_secret' } }))['config.oidcClientAssertion.keyAlgorithm']).toBe('HS256');
  });

  it('manifest-style paths', () => {
    expect(Object.keys(authMethodFields(spec())).sort()).toEqual([
      'config.allowedRedirectUris',
      'config.boundAudiences',
      'config.claimMappings',
      'config.oidcClientId',
      'config.oidcDiscoveryUrl',
      'config.oidcScopes',
      'default',
      'maxTokenTtl',
      'tokenLocality',
      'tokenNameFormat',
      'type',
    ]);
  });
});

describe('authMethodRequest (what is sent)', () => {
  it('sends Default explicitly, the whole Config, a Go duration and the effective TokenNameFormat', () => {
    const body = authMethodRequest('corp', spec({ maxTokenTtl: '90m' }), { oidcClientSecret: 's3cret' });
    expect(body.Default).toBe(false);
    expect(body.MaxTokenTTL).toBe('1h30m0s');
    expect(body.TokenNameFormat).toBe(DEFAULT_TOKEN_NAME_FORMAT);
    expect(body.Config.OIDCClientSecret).toBe('s3cret');
    // Every config key, set or not: the server replaces Config whole (§3.1).
    for (const k of ['JWKSURL', 'BoundIssuer', 'SigningAlgs', 'ExpirationLeeway', 'ListClaimMappings', 'OIDCClientAssertion', 'VerboseLogging', 'OIDCEnablePKCE']) {
      expect(body.Config).toHaveProperty(k);
    }
    expect(body.Config.ExpirationLeeway).toBe('');
  });

  it('never sends MaxTokenTTL as "" (the server 400s it, §1.3): a zero TTL is refused before sending', () => {
    for (const ttl of ['0s', '0', '']) {
      expect(() => authMethodRequest('corp', spec({ maxTokenTtl: ttl }), {}), ttl).toThrow(/maxTokenTtl must be a duration greater than zero/);
    }
  });

  it('never sends a secret it was not given', () => {
    const body = authMethodRequest('corp', spec(), {});
    expect(body.Config.OIDCClientSecret).toBe('');
    expect(JSON.stringify(body)).not.toContain('redacted');
  });

  it('puts the resolved pem key in the client assertion', () => {
    const body = authMethodRequest('corp', spec({}, { oidcClientAssertion: { keySource: 'private_key', audience: ['x'], privateKey: { pemKey: { fromEnv: 'K' } } } }), {
      pemKey: 'PEM',
    });
    expect((body.Config.OIDCClientAssertion as { PrivateKey: { PemKey: string } }).PrivateKey.PemKey).toBe('PEM');
  });
});

describe('binding rules', () => {
  const live = parseBindingRule(
    { ID: 'u-1', Description: '', AuthMethod: 'okta', Selector: '"eng" in list.groups', BindType: 'role', BindName: 'dev', Hash: 'h', CreateIndex: 1, ModifyIndex: 1 },
    'rule',
  );

  it('desired and live agree; empty description equals unset', () => {
    expect(diffFields(liveBindingRuleFields(live), bindingRuleFields({ authMethod: 'okta', selector: '"eng" in list.groups', bindType: 'role', bindName: 'dev' }))).toEqual([]);
  });

  it('the request sends every field; management has an empty bind name', () => {
    expect(bindingRuleRequest({ authMethod: 'okta', bindType: 'role', bindName: 'dev' })).toEqual({
      AuthMethod: 'okta',
      Description: '',
      Selector: '',
      BindType: 'role',
      BindName: 'dev',
    });
    expect(bindingRuleRequest({ authMethod: 'okta', bindType: 'management', bindName: 'x' }).BindName).toBe('');
  });

  it('natural key: auth method, selector, bind type, bind name', () => {
    expect(ruleNaturalKey({ authMethod: 'okta', selector: '"eng" in list.groups', bindType: 'role', bindName: 'dev' })).toBe(
      ruleNaturalKey({ authMethod: live.AuthMethod, selector: live.Selector, bindType: 'role', bindName: live.BindName }),
    );
    expect(ruleNaturalKey({ authMethod: 'okta', bindType: 'role', bindName: 'dev' })).not.toBe(
      ruleNaturalKey({ authMethod: 'okta', selector: 'x', bindType: 'role', bindName: 'dev' }),
    );
  });
});
