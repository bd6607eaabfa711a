import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEXT, client, oidc, startSim, type AuthMethodJson, type Sim } from './helpers.js';

let sim: Sim;
beforeAll(async () => {
  sim = await startSim();
});
afterAll(async () => {
  await sim.s.stop();
});

const path = (n: string) => `/v1/acl/auth-method/${n}`;

describe('auth method shape (docs/reference/nomad-api.md §1.2, §1.3)', () => {
  it('answers a create with the real field order, durations as Go text, Hash, RFC 3339 ns times and indexes', async () => {
    const r = await sim.m.post('/v1/acl/auth-method', oidc('shape', {}, { ClaimMappings: { z: 'zz', a: 'aa' }, ExpirationLeeway: 90e9 }));
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/json');
    const m = r.json<AuthMethodJson>();
    expect(Object.keys(m)).toEqual([
      'MaxTokenTTL', 'Name', 'Type', 'TokenLocality', 'TokenNameFormat', 'Default', 'Config',
      'Hash', 'CreateTime', 'ModifyTime', 'CreateIndex', 'ModifyIndex',
    ]);
    expect(Object.keys(m.Config ?? {}).slice(0, 4)).toEqual(['ExpirationLeeway', 'NotBeforeLeeway', 'ClockSkewLeeway', 'JWTValidationPubKeys']);
    expect(m.MaxTokenTTL).toBe('1h0m0s');
    expect(m.Config?.ExpirationLeeway).toBe('1m30s');
    expect(m.Config?.NotBeforeLeeway).toBe('');
    expect(m.Config?.SigningAlgs).toBeNull();
    expect(m.Config?.OIDCClientAssertion).toBeNull();
    // encoding/json sorts map keys
    expect(r.text).toContain('"ClaimMappings":{"a":"aa","z":"zz"}');
    expect(Buffer.from(m.Hash, 'base64')).toHaveLength(32);
    expect(m.CreateTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?Z$/);
    expect(m.ModifyTime).toBe(m.CreateTime);
    expect(m.CreateIndex).toBe(m.ModifyIndex);
    expect(r.headers.get('x-nomad-index')).toBe(String(m.ModifyIndex));
    // writes carry only X-Nomad-Index (docs/reference/nomad-api.md §3.1)
    expect(r.headers.get('x-nomad-knownleader')).toBeNull();
    expect(r.headers.get('x-nomad-lastcontact')).toBeNull();
  });

  it('escapes HTML characters like encoding/json does', async () => {
    const r = await sim.m.post('/v1/acl/auth-method', oidc('html', {}, { OIDCDiscoveryURL: 'https://idp/?a=1&b=<2>' }));
    expect(r.text).toContain('https://idp/?a=1\\u0026b=\\u003c2\\u003e');
    expect(r.json<AuthMethodJson>().Config?.OIDCDiscoveryURL).toBe('https://idp/?a=1&b=<2>');
  });

  it('reads MaxTokenTTL as a Go duration string or as nanoseconds', async () => {
    const a = await sim.m.post('/v1/acl/auth-method', oidc('ttl-str', { MaxTokenTTL: '90m' }));
    expect(a.json<AuthMethodJson>().MaxTokenTTL).toBe('1h30m0s');
    const b = await sim.m.post('/v1/acl/auth-method', oidc('ttl-num', { MaxTokenTTL: 600e9 }));
    expect(b.json<AuthMethodJson>().MaxTokenTTL).toBe('10m0s');
  });

  it('rejects MaxTokenTTL "" with the Go parse error, but accepts a leeway of ""', async () => {
    const a = await sim.m.post('/v1/acl/auth-method', oidc('ttl-empty', { MaxTokenTTL: '' }));
    expect(a.status).toBe(400);
    expect(a.text).toBe('time: invalid duration ""');
    expect(a.headers.get('content-type')).toBe(TEXT);
    const b = await sim.m.post('/v1/acl/auth-method', oidc('leeway-empty', {}, { ClockSkewLeeway: '' }));
    expect(b.status).toBe(200);
    const c = await sim.m.post('/v1/acl/auth-method', oidc('leeway-bad', {}, { ClockSkewLeeway: true }));
    expect(c.status).toBe(400);
    expect(c.text).toBe('unexpected ClockSkewLeeway type: true');
    const d = await sim.m.post('/v1/acl/auth-method', oidc('ttl-unit', { MaxTokenTTL: '1d' }));
    expect(d.text).toBe('time: unknown unit "d" in duration "1d"');
  });

  it('ignores a MaxTokenTTL of another type (it stays 0 and fails the bounds check)', async () => {
    const r = await sim.m.post('/v1/acl/auth-method', oidc('ttl-bool', { MaxTokenTTL: true }));
    expect(r.status).toBe(400);
    expect(r.text).toContain("invalid MaxTokenTTL value '0s' (should be between 1m0s and 24h0m0s)");
  });

  it('matches request keys case-insensitively and ignores unknown keys', async () => {
    const body = { name: 'casey', TYPE: 'OIDC', Tokenlocality: 'local', Maxtokenttl: '2h', Bogus: 1, config: { oidcdiscoveryurl: 'https://i/', OIDCCLIENTID: 'x' } };
    const r = await sim.m.post('/v1/acl/auth-method', body);
    expect(r.status).toBe(200);
    const m = r.json<AuthMethodJson>();
    expect([m.Name, m.TokenLocality, m.MaxTokenTTL, m.Config?.OIDCClientID]).toEqual(['casey', 'local', '2h0m0s', 'x']);
  });

  it('answers bad JSON, an empty body and a wrong field type with 400 and Go decoder texts', async () => {
    const bad = await sim.m.post('/v1/acl/auth-method', '{"Name": x}');
    expect([bad.status, bad.text]).toEqual([400, "invalid character 'x' looking for beginning of value"]);
    const trunc = await sim.m.post('/v1/acl/auth-method', '{"Name": "x"');
    expect([trunc.status, trunc.text]).toEqual([400, 'unexpected EOF']);
    const empty = await sim.m.post('/v1/acl/auth-method', '');
    expect([empty.status, empty.text]).toEqual([400, 'Request body is empty']);
    const typed = await sim.m.post('/v1/acl/auth-method', { ...oidc('typed'), Name: 5 });
    expect(typed.status).toBe(400);
    expect(typed.text).toBe('json: cannot unmarshal number into Go struct field ACLAuthMethod.Name of type string');
    const arr = await sim.m.post('/v1/acl/auth-method', []);
    expect(arr.text).toBe('json: cannot unmarshal array into Go value of type structs.ACLAuthMethod');
  });
});

describe('routes and methods (docs/reference/nomad-api.md §1.1)', () => {
  it('gives 405 Invalid method to other methods', async () => {
    for (const [method, p] of [['GET', '/v1/acl/auth-method'], ['DELETE', '/v1/acl/auth-method'], ['POST', '/v1/acl/auth-methods'], ['PATCH', path('x')]] as const) {
      const r = await sim.m.req(method, p);
      expect([method, p, r.status, r.text]).toEqual([method, p, 405, 'Invalid method']);
      expect(r.headers.get('content-type')).toBe(TEXT);
    }
  });

  it('needs a name after the prefix', async () => {
    const r = await sim.m.get('/v1/acl/auth-method/');
    expect([r.status, r.text]).toEqual([400, 'missing ACL auth-method name']);
  });

  it('answers unknown paths with Go mux 404', async () => {
    const r = await sim.m.get('/v1/nope');
    expect(r.status).toBe(404);
  });
});

describe('upsert, merge and no-op (docs/reference/nomad-api.md §3.1, §4)', () => {
  it('creates on an existing name by updating it (no 409), and updates a missing name by creating it', async () => {
    const a = await sim.m.post('/v1/acl/auth-method', oidc('ups'));
    const b = await sim.m.post('/v1/acl/auth-method', oidc('ups', { TokenLocality: 'local' }));
    expect(b.status).toBe(200);
    const bm = b.json<AuthMethodJson>();
    expect(bm.TokenLocality).toBe('local');
    expect(bm.CreateIndex).toBe(a.json<AuthMethodJson>().CreateIndex);
    expect(bm.CreateTime).toBe(a.json<AuthMethodJson>().CreateTime);
    expect(bm.ModifyIndex).toBeGreaterThan(bm.CreateIndex);
    const c = await sim.m.post(path('fresh'), oidc('fresh'));
    expect(c.status).toBe(200);
    expect((await sim.m.get(path('fresh'))).status).toBe(200);
  });

  it('needs the body Name to equal the URL name, a blank one included', async () => {
    const a = await sim.m.put(path('one'), oidc('two'));
    expect([a.status, a.text]).toEqual([400, 'ACL auth-method name does not match request path']);
    const b = await sim.m.put(path('one'), { ...oidc('one'), Name: '' });
    expect(b.text).toBe('ACL auth-method name does not match request path');
  });

  it('accepts names with slashes in the URL (the name is the rest of the path), then fails validation', async () => {
    const r = await sim.m.put(path('a/b'), oidc('a/b'));
    expect(r.status).toBe(400);
    expect(r.text).toContain("invalid name 'a/b'");
  });

  it('keeps stored values for blank top-level fields, replaces Config whole, and never merges Default', async () => {
    await sim.m.post('/v1/acl/auth-method', oidc('merge', { TokenNameFormat: 'custom-${auth_method_name}', MaxTokenTTL: '2h' }, { OIDCScopes: ['groups'] }));
    const r = await sim.m.post(path('merge'), { Name: 'merge', Config: { OIDCDiscoveryURL: 'https://new/', OIDCClientID: 'new-id' } });
    expect(r.status).toBe(200);
    const m = r.json<AuthMethodJson>();
    expect([m.Type, m.TokenLocality, m.TokenNameFormat, m.MaxTokenTTL]).toEqual(['OIDC', 'global', 'custom-${auth_method_name}', '2h0m0s']);
    expect(m.Config?.OIDCScopes).toBeNull(); // omitted config fields are cleared
    expect(m.Config?.OIDCClientSecret).toBe(''); // the stored secret went with the old Config
    expect(m.Config?.AllowedRedirectURIs).toBeNull();
  });

  it('keeps the stored Config when the update has none', async () => {
    await sim.m.post('/v1/acl/auth-method', oidc('keepcfg', {}, { OIDCScopes: ['a'] }));
    const r = await sim.m.post(path('keepcfg'), { Name: 'keepcfg', TokenLocality: 'local' });
    expect(r.json<AuthMethodJson>().Config?.OIDCScopes).toEqual(['a']);
  });

  it('allows Type to change, validating the config against the new type', async () => {
    await sim.m.post('/v1/acl/auth-method', oidc('retype'));
    const bad = await sim.m.post(path('retype'), { Name: 'retype', Type: 'JWT', Config: { OIDCClientID: 'x' } });
    expect(bad.text).toBe(
      'auth method 0 invalid: 1 error occurred:\n\t* invalid config: JWT auth method requires either OIDCDiscoveryURL, or JWKS URL, or JWTValidationPubKeys set\n\n',
    );
    const ok = await sim.m.post(path('retype'), { Name: 'retype', Type: 'JWT', Config: { JWKSURL: 'https://idp/jwks' } });
    expect(ok.json<AuthMethodJson>().Type).toBe('JWT');
  });

  it('fills TokenNameFormat with the default', async () => {
    const r = await sim.m.post('/v1/acl/auth-method', oidc('tnf'));
    expect(r.json<AuthMethodJson>().TokenNameFormat).toBe('${auth_method_type}-${auth_method_name}');
  });

  it('writes nothing on a no-op update: old ModifyIndex and ModifyTime, new X-Nomad-Index', async () => {
    const a = (await sim.m.post('/v1/acl/auth-method', oidc('noop'))).json<AuthMethodJson>();
    const r = await sim.m.post(path('noop'), oidc('noop'));
    const b = r.json<AuthMethodJson>();
    expect(b.ModifyIndex).toBe(a.ModifyIndex);
    expect(b.ModifyTime).toBe(a.ModifyTime);
    expect(b.Hash).toBe(a.Hash);
    expect(Number(r.headers.get('x-nomad-index'))).toBeGreaterThan(a.ModifyIndex);
  });

  it('changes the Hash when any user-set field changes, including a config field', async () => {
    const a = (await sim.m.post('/v1/acl/auth-method', oidc('hashy'))).json<AuthMethodJson>();
    const b = (await sim.m.post(path('hashy'), oidc('hashy', {}, { VerboseLogging: true }))).json<AuthMethodJson>();
    expect(b.Hash).not.toBe(a.Hash);
    expect(b.ModifyIndex).toBeGreaterThan(a.ModifyIndex);
  });
});

describe('validation (docs/reference/nomad-api.md §3.2)', () => {
  it('reports every failure in order as a go-multierror', async () => {
    const r = await sim.m.post('/v1/acl/auth-method', { Name: 'bad name', Type: 'oidc', TokenLocality: 'Global', MaxTokenTTL: '25h' });
    expect(r.status).toBe(400);
    expect(r.headers.get('content-type')).toBe(TEXT);
    expect(r.text).toBe(
      'auth method 0 invalid: 5 errors occurred:\n' +
        "\t* invalid name 'bad name'\n" +
        "\t* invalid token locality 'Global'\n" +
        "\t* invalid token type 'oidc'\n" +
        '\t* invalid config: missing auth method Config\n' +
        "\t* invalid MaxTokenTTL value '25h0m0s' (should be between 1m0s and 24h0m0s)\n\n",
    );
  });

  it('nests several config errors and flattens a single one', async () => {
    const r = await sim.m.post('/v1/acl/auth-method', { ...oidc('cfg2'), Config: {} });
    expect(r.text).toBe(
      'auth method 0 invalid: 1 error occurred:\n\t* invalid config: 2 errors occurred:\n\t* missing OIDCDiscoveryURL\n\t* missing OIDCClientID\n\n\n\n',
    );
    const one = await sim.m.post('/v1/acl/auth-method', { ...oidc('cfg1'), Config: { OIDCDiscoveryURL: 'https://i/' } });
    expect(one.text).toBe('auth method 0 invalid: 1 error occurred:\n\t* invalid config: missing OIDCClientID\n\n');
  });

  it('takes TTL bounds inclusively and shows a missing TTL as 0s', async () => {
    expect((await sim.m.post('/v1/acl/auth-method', oidc('ttl-min', { MaxTokenTTL: '1m' }))).status).toBe(200);
    expect((await sim.m.post('/v1/acl/auth-method', oidc('ttl-max', { MaxTokenTTL: '24h' }))).status).toBe(200);
    const r = await sim.m.post('/v1/acl/auth-method', oidc('ttl-none', { MaxTokenTTL: undefined }));
    expect(r.text).toBe("auth method 0 invalid: 1 error occurred:\n\t* invalid MaxTokenTTL value '0s' (should be between 1m0s and 24h0m0s)\n\n");
  });

  it('accepts underscores in names (the spec rule) and refuses 129 characters', async () => {
    expect((await sim.m.post('/v1/acl/auth-method', oidc('with_underscore'))).status).toBe(200);
    const long = 'a'.repeat(129);
    expect((await sim.m.post('/v1/acl/auth-method', oidc(long))).text).toContain(`invalid name '${long}'`);
    expect((await sim.m.post('/v1/acl/auth-method', oidc('a'.repeat(128)))).status).toBe(200);
  });

  it('does not require OIDCClientSecret', async () => {
    const r = await sim.m.post('/v1/acl/auth-method', oidc('nosecret', {}, { OIDCClientSecret: undefined }));
    expect(r.status).toBe(200);
    expect(r.json<AuthMethodJson>().Config?.OIDCClientSecret).toBe('');
  });

  it('checks the client assertion config', async () => {
    const a = await sim.m.post('/v1/acl/auth-method', oidc('ca1', {}, { OIDCClientAssertion: { KeySource: 'x', Audience: ['a'] } }));
    expect(a.text).toBe('auth method 0 invalid: 1 error occurred:\n\t* invalid config: invalid client assertion config: invalid KeySource "x"\n\n');
    // An empty Audience is filled with the discovery URL before Validate, and KeyIDHeader from the key (docs/reference/nomad-api.md §3.3).
    const b = await sim.m.post('/v1/acl/auth-method', oidc('ca2', {}, { OIDCClientAssertion: { KeySource: 'nomad' } }));
    expect(b.status).toBe(200);
    const bc = b.json<AuthMethodJson>().Config as { OIDCDiscoveryURL: string; OIDCClientAssertion: { Audience: string[] } };
    expect(bc.OIDCClientAssertion.Audience).toEqual([bc.OIDCDiscoveryURL]);
    const kid = await sim.m.post('/v1/acl/auth-method', oidc('ca6', {}, { OIDCClientAssertion: { KeySource: 'private_key', PrivateKey: { PemKeyFile: '/k.pem', KeyID: 'k1' } } }));
    expect((kid.json<AuthMethodJson>().Config as { OIDCClientAssertion: { PrivateKey: { KeyIDHeader: string } } }).OIDCClientAssertion.PrivateKey.KeyIDHeader).toBe('kid');
    const x5t = await sim.m.post('/v1/acl/auth-method', oidc('ca7', {}, { OIDCClientAssertion: { KeySource: 'private_key', PrivateKey: { PemKeyFile: '/k.pem', KeyID: 'k1', PemCertFile: '/c.pem' } } }));
    expect((x5t.json<AuthMethodJson>().Config as { OIDCClientAssertion: { PrivateKey: { KeyIDHeader: string } } }).OIDCClientAssertion.PrivateKey.KeyIDHeader).toBe('x5t#S256');
    const c = await sim.m.post('/v1/acl/auth-method', oidc('ca3', {}, { OIDCClientAssertion: { KeySource: 'private_key', Audience: ['a'] } }));
    expect(c.text).toContain('invalid client assertion config: PrivateKey is required for `private_key` KeySource');
    const d = await sim.m.post('/v1/acl/auth-method', oidc('ca4', {}, { OIDCClientSecret: '', OIDCClientAssertion: { KeySource: 'client_secret', Audience: ['a'] } }));
    expect(d.text).toContain('OIDCClientSecret is required for `client_secret` KeySource');
    const e = await sim.m.post('/v1/acl/auth-method', oidc('ca5', {}, { OIDCClientAssertion: { KeySource: 'private_key', Audience: ['a'], PrivateKey: {} } }));
    expect(e.text).toContain('missing PemKey or PemKeyFile');
  });
});

describe('secrets (docs/reference/nomad-api.md §5)', () => {
  it('redacts the client secret and assertion key material on GET and write replies', async () => {
    const body = oidc('sec', {}, { OIDCClientAssertion: { KeySource: 'private_key', Audience: ['a'], PrivateKey: { PemKey: 'PRIVATE', PemCertFile: '/c.pem' } } });
    const w = await sim.m.post('/v1/acl/auth-method', body);
    expect(w.status).toBe(200);
    const g = await sim.m.get(path('sec'));
    for (const r of [w, g]) {
      expect(r.text).not.toContain('top-secret-value');
      expect(r.text).not.toContain('PRIVATE');
      const cfg = r.json<AuthMethodJson>().Config as { OIDCClientSecret: string; OIDCClientAssertion: { ClientSecret: string; KeyAlgorithm: string; PrivateKey: { PemKey: string; PemCertFile: string } } };
      expect(cfg.OIDCClientSecret).toBe('redacted');
      expect(cfg.OIDCClientAssertion.ClientSecret).toBe('redacted');
      expect(cfg.OIDCClientAssertion.PrivateKey.PemKey).toBe('redacted');
      expect(cfg.OIDCClientAssertion.PrivateKey.PemCertFile).toBe('/c.pem');
      expect(cfg.OIDCClientAssertion.KeyAlgorithm).toBe('RS256');
    }
  });

  it('stores "redacted" literally when a GET result is written back (the hash changes)', async () => {
    const first = (await sim.m.post('/v1/acl/auth-method', oidc('echo'))).json<AuthMethodJson>();
    const got = (await sim.m.get(path('echo'))).json<AuthMethodJson>();
    const back = (await sim.m.put(path('echo'), got as unknown as Record<string, unknown>)).json<AuthMethodJson>();
    expect(back.Hash).not.toBe(first.Hash);
    expect(back.ModifyIndex).toBeGreaterThan(first.ModifyIndex);
    // Writing the real secret again is a change back, not a no-op.
    const again = (await sim.m.put(path('echo'), oidc('echo'))).json<AuthMethodJson>();
    expect(again.Hash).toBe(first.Hash);
  });
});

describe('read, list, delete and errors (docs/reference/nomad-api.md §2, §6, §7, §8)', () => {
  it('lists stubs without any token, [] when empty, and an index of at least 1', async () => {
    const fresh = await startSim();
    try {
      const empty = await fresh.anon.get('/v1/acl/auth-methods');
      expect([empty.status, empty.text, empty.headers.get('x-nomad-index')]).toEqual([200, '[]', '1']);
      await fresh.m.post('/v1/acl/auth-method', oidc('b'));
      await fresh.m.post('/v1/acl/auth-method', oidc('a'));
      const bogus = client(fresh.s.url, 'not-a-token');
      const r = await bogus.get('/v1/acl/auth-methods');
      expect(r.status).toBe(200);
      const list = r.json<Array<Record<string, unknown>>>();
      expect(list.map((x) => x.Name)).toEqual(['a', 'b']);
      expect(Object.keys(list[0] ?? {})).toEqual(['Name', 'Type', 'Default', 'Hash', 'CreateIndex', 'ModifyIndex']);
      expect(r.headers.get('x-nomad-knownleader')).toBe('true');
      expect(r.headers.get('x-nomad-lastcontact')).toBe('0');
      const b = list.find((x) => x.Name === 'b');
      expect(Number(r.headers.get('x-nomad-index'))).toBeGreaterThan(Number(b?.ModifyIndex));
    } finally {
      await fresh.s.stop();
    }
  });

  it('answers GET with the method ModifyIndex, and a missing one with 404 and the table index', async () => {
    const w = (await sim.m.post('/v1/acl/auth-method', oidc('getme'))).json<AuthMethodJson>();
    const r = await sim.m.get(path('getme'));
    expect(r.headers.get('x-nomad-index')).toBe(String(w.ModifyIndex));
    const miss = await sim.m.get(path('nobody'));
    expect([miss.status, miss.text]).toEqual([404, 'ACL auth-method not found']);
    expect(miss.headers.get('content-type')).toBe(TEXT);
    expect(Number(miss.headers.get('x-nomad-index'))).toBeGreaterThan(0);
    const fresh = await startSim();
    try {
      expect((await fresh.m.get(path('nobody'))).headers.get('x-nomad-index')).toBe('0');
    } finally {
      await fresh.s.stop();
    }
  });

  it('deletes with 200 and an empty body; a missing method is a 500 with the unhyphenated text', async () => {
    await sim.m.post('/v1/acl/auth-method', oidc('doomed'));
    const d = await sim.m.del(path('doomed'));
    expect([d.status, d.text]).toEqual([200, '']);
    expect(d.headers.get('content-type')).toBeNull();
    expect(Number(d.headers.get('x-nomad-index'))).toBeGreaterThan(0);
    expect((await sim.m.get(path('doomed'))).status).toBe(404);
    const again = await sim.m.del(path('doomed'));
    expect([again.status, again.text]).toEqual([500, 'ACL auth method not found']);
  });

  it('indents with ?pretty', async () => {
    await sim.m.post('/v1/acl/auth-method', oidc('pretty'));
    const r = await sim.m.get(`${path('pretty')}?pretty`);
    expect(r.text).toMatch(/^\{\n {4}"MaxTokenTTL": "1h0m0s",\n/);
    expect(r.text.endsWith('}\n')).toBe(true);
  });
});

describe('auth (docs/reference/nomad-api.md §6)', () => {
  it('needs a management token for read, write and delete: anything else is 403 Permission denied', async () => {
    await sim.m.post('/v1/acl/auth-method', oidc('guarded'));
    const callers = [sim.anon, sim.c, client(sim.s.url, 'bogus-token')];
    for (const who of callers) {
      for (const r of [await who.get(path('guarded')), await who.post(path('guarded'), oidc('guarded')), await who.del(path('guarded')), await who.post('/v1/acl/auth-method', oidc('x'))]) {
        expect([r.status, r.text]).toEqual([403, 'Permission denied']);
        expect(r.headers.get('content-type')).toBe(TEXT);
      }
    }
  });

  it('takes Authorization: Bearer (any case), and X-Nomad-Token wins over it', async () => {
    const bare = client(sim.s.url);
    expect((await bare.get(path('guarded'), { Authorization: `Bearer ${sim.s.managementToken}` })).status).toBe(200);
    expect((await bare.get(path('guarded'), { Authorization: `bEaReR ${sim.s.managementToken} trailing` })).status).toBe(200);
    expect((await bare.get(path('guarded'), { Authorization: `Basic ${sim.s.managementToken}` })).status).toBe(403);
    const both = await bare.get(path('guarded'), { 'X-Nomad-Token': 'wrong', Authorization: `Bearer ${sim.s.managementToken}` });
    expect(both.status).toBe(403);
    const both2 = await bare.get(path('guarded'), { 'X-Nomad-Token': sim.s.managementToken, Authorization: 'Bearer wrong' });
    expect(both2.status).toBe(200);
  });

  it('checks the body before the token (a bad body from anyone is a 400)', async () => {
    const r = await sim.anon.post('/v1/acl/auth-method', '{');
    expect(r.status).toBe(400);
  });
});

describe('ACLs disabled', () => {
  it('answers the ACL endpoints with 400 ACL support disabled', async () => {
    const off = await startSim({ aclEnabled: false });
    try {
      for (const r of [
        await off.anon.get('/v1/acl/auth-methods'),
        await off.m.get(path('x')),
        await off.m.post('/v1/acl/auth-method', oidc('x')),
        await off.m.del(path('x')),
        await off.m.get('/v1/acl/binding-rules'),
      ]) {
        expect([r.status, r.text]).toEqual([400, 'ACL support disabled']);
      }
      // Variables still work, for anyone.
      expect((await off.anon.put('/v1/var/x', { Items: { a: 'b' } })).status).toBe(200);
    } finally {
      await off.s.stop();
    }
  });
});
