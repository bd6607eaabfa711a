import { generateKeyPairSync, sign } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explainLogin } from '../../src/login/index.js';
import { startNomadSimulator, type NomadSimHandle } from '../../src/sandbox/nomad/index.js';
import { caseWorld, CORPUS_POLICIES, CORPUS_ROLES, LOGIN_CASES } from '../login/nomad-login-cases.js';

/*
 * The sandbox's `POST /v1/acl/login` and the offline explanation are two readings of Nomad's login code
 * that share no code. For every corpus case (test/login/nomad-login-cases.ts) a JWT is signed with a key
 * the auth method trusts and logged in with; the token the sandbox issues must be the one the explanation
 * describes, and a login the explanation refuses must be refused.
 */
let sim: NomadSimHandle;
const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
const PUB = keys.publicKey.export({ type: 'spki', format: 'pem' }).toString();
const ISSUER = 'https://issuer.example';
const AUDIENCE = 'nomad-sandbox';

function jwt(claims: Record<string, unknown>, key = keys.privateKey, header: Record<string, unknown> = { alg: 'RS256', typ: 'JWT' }): string {
  const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const body = `${b64(header)}.${b64(claims)}`;
  return `${body}.${sign('sha256', Buffer.from(body), key).toString('base64url')}`;
}
const now = () => Math.floor(Date.now() / 1000);
const standard = () => ({ iss: ISSUER, aud: AUDIENCE, iat: now(), exp: now() + 300 });

async function call(path: string, body: unknown, token?: string): Promise<{ status: number; json: unknown; text: string }> {
  const res = await fetch(`${sim.url}${path}`, { method: 'POST', headers: token ? { 'X-Nomad-Token': token } : {}, body: JSON.stringify(body) });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text };
}
const admin = async (path: string, body: unknown) => {
  const r = await call(path, body, sim.managementToken);
  if (r.status !== 200) throw new Error(`${path}: ${r.status} ${r.text}`);
};

async function method(name: string, config: Record<string, unknown>): Promise<void> {
  await admin(`/v1/acl/auth-method/${name}`, {
    Name: name,
    Type: 'JWT',
    TokenLocality: 'local',
    MaxTokenTTL: '1h',
    Config: { JWTValidationPubKeys: [PUB], BoundAudiences: [AUDIENCE], BoundIssuer: [ISSUER], ...config },
  });
}

beforeAll(async () => {
  sim = await startNomadSimulator({ port: 0 });
  for (const [name, rules] of Object.entries(CORPUS_POLICIES)) await admin(`/v1/acl/policy/${name}`, { Name: name, Rules: rules });
  for (const [name, policies] of Object.entries(CORPUS_ROLES)) {
    // A role may name only existing policies; the corpus's missing one is left out here and the explanation told so.
    await admin('/v1/acl/role', { Name: name, Policies: policies.filter((p) => p in CORPUS_POLICIES).map((p) => ({ Name: p })) });
  }
});
afterAll(async () => sim.stop());

describe('the sandbox issues the token the explanation describes', () => {
  LOGIN_CASES.forEach((c, n) => {
    it(c.name, async () => {
      const name = `corpus-${n}`;
      await method(name, { ClaimMappings: c.claimMappings ?? null, ListClaimMappings: c.listClaimMappings ?? null });
      for (const r of c.rules) {
        const w = await call('/v1/acl/binding-rule', { AuthMethod: name, Selector: r.selector ?? '', BindType: r.bindType, BindName: r.bindName ?? '' }, sim.managementToken);
        // Nomad refuses to store a selector that does not parse (docs/reference/nomad-api.md §10); such a rule matches nothing either way.
        if (w.status !== 200) expect(w.text).toContain('selector is invalid');
      }
      const world = caseWorld(c);
      const x = explainLogin({ ...world, method: { ...world.method, name } }, { ...c.claims, ...standard() });
      const r = await call('/v1/acl/login', { AuthMethodName: name, LoginToken: jwt({ ...c.claims, ...standard() }) });
      const why = `${c.source}\nsandbox: ${r.status} ${r.text}\nexplanation: ${x.outcome} ${x.refusal ?? ''}`;
      expect(r.status === 200 ? 'granted' : 'refused', why).toBe(x.outcome);
      if (r.status !== 200) {
        if (x.refusal?.startsWith('no role or policy bindings matched')) expect(r.text, why).toContain('no role or policy bindings matched');
        return;
      }
      const t = r.json as { Type: string; Name: string; Policies: string[] | null; Roles: { Name: string }[] | null };
      expect(t.Type, why).toBe(x.token?.type);
      expect(t.Name, why).toBe(x.token?.name);
      expect([...(t.Policies ?? [])].sort(), why).toEqual([...(x.token?.policies ?? [])].sort());
      expect((t.Roles ?? []).map((role) => role.Name).sort(), why).toEqual([...(x.token?.roles ?? [])].sort());
    });
  });
});

describe('JWT checks at login', () => {
  const login = (token: string) => call('/v1/acl/login', { AuthMethodName: 'checks', LoginToken: token });
  beforeAll(async () => {
    await method('checks', { ListClaimMappings: { groups: 'groups' }, ExpirationLeeway: '10s', ClockSkewLeeway: '-1s' });
    await admin('/v1/acl/binding-rule', { AuthMethod: 'checks', Selector: '"eng" in list.groups', BindType: 'policy', BindName: 'readonly' });
  });

  it('accepts a token signed by a trusted key', async () => {
    expect((await login(jwt({ ...standard(), groups: ['eng'] }))).status).toBe(200);
  });
  it('refuses a signature by another key', async () => {
    const r = await login(jwt({ ...standard(), groups: ['eng'] }, other.privateKey));
    expect(r.status).toBe(401);
    expect(r.text).toContain('unable to validate provided token');
  });
  it('refuses an algorithm the method does not allow', async () => {
    const r = await login(jwt({ ...standard(), groups: ['eng'] }, keys.privateKey, { alg: 'RS512' }));
    expect(r.status).toBe(401);
  });
  it('refuses another audience and another issuer', async () => {
    expect((await login(jwt({ ...standard(), aud: 'elsewhere', groups: ['eng'] }))).text).toContain('invalid audience');
    expect((await login(jwt({ ...standard(), iss: 'https://evil.example', groups: ['eng'] }))).text).toContain('invalid JWT issuer');
  });
  it('refuses an expired token, with no clock skew leeway', async () => {
    const r = await login(jwt({ iss: ISSUER, aud: AUDIENCE, iat: now() - 600, exp: now() - 1, groups: ['eng'] }));
    expect(r.status).toBe(401);
    expect(r.text).toContain('token is expired');
  });
  it('without exp, a token lives iat + ExpirationLeeway', async () => {
    expect((await login(jwt({ iss: ISSUER, aud: AUDIENCE, iat: now() - 5, groups: ['eng'] }))).status).toBe(200);
    expect((await login(jwt({ iss: ISSUER, aud: AUDIENCE, iat: now() - 30, groups: ['eng'] }))).text).toContain('token is expired');
  });
  it('refuses a token with no time claims', async () => {
    expect((await login(jwt({ iss: ISSUER, aud: AUDIENCE, groups: ['eng'] }))).text).toContain('no issued at (iat), not before (nbf), or expiration time (exp) claims');
  });
});
