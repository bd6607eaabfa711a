import { createPublicKey, randomUUID, verify, type KeyObject } from 'node:crypto';
import { requireAclEnabled } from './auth.js';
import type { Reply, RequestContext } from './context.js';
import { badRequest, HttpError, invalidMethod, multierror } from './errors.js';
import { decodeBody, GoFields } from './json-decode.js';
import type { JsonOut } from './json-encode.js';
import { selectorMatches } from './login-selector.js';
import { nowNs, rfc3339Nano } from './times.js';
import type { AuthMethod, AuthMethodConfig } from './types.js';

/*
 * `PUT|POST /v1/acl/login` for JWT auth methods (docs/reference/nomad-login.md; nomad/acl_endpoint.go
 * Login, lib/auth/jwt/validator.go Validate, hashicorp/cap jwt/jwt.go validateAll, lib/auth/claims.go,
 * lib/auth/identity.go, lib/auth/binder.go). The JWT's signature is checked against the method's
 * JWTValidationPubKeys with node:crypto (JWKS and OIDC discovery keys are not fetched: such a method is
 * refused here with a 401), then the signing algorithm, audiences, times with their leeways, and issuer.
 * The answer is the token Nomad would issue; the sandbox keeps no login tokens (token/self does not know them).
 */

const unauthorized = (why: string): HttpError => new HttpError(401, `unable to validate provided token: ${why}`);

type Claims = Record<string, unknown>;

/** JWS algorithms → node:crypto verify arguments. */
const ALGS: Record<string, { hash: string | null; pss?: boolean; ec?: boolean }> = {
  RS256: { hash: 'sha256' },
  RS384: { hash: 'sha384' },
  RS512: { hash: 'sha512' },
  PS256: { hash: 'sha256', pss: true },
  PS384: { hash: 'sha384', pss: true },
  PS512: { hash: 'sha512', pss: true },
  ES256: { hash: 'sha256', ec: true },
  ES384: { hash: 'sha384', ec: true },
  ES512: { hash: 'sha512', ec: true },
  EdDSA: { hash: null },
};

function b64json(part: string | undefined): Claims | undefined {
  try {
    const v: unknown = JSON.parse(Buffer.from(part ?? '', 'base64url').toString('utf8'));
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Claims) : undefined;
  } catch {
    return undefined;
  }
}

/** cap jwt validateAll: signature (any of the keys), algorithm, audience, then the time claims. */
function validateJwt(token: string, conf: AuthMethodConfig, nowMs: number): Claims {
  const keys = conf.JWTValidationPubKeys ?? [];
  if (keys.length === 0) throw unauthorized('the sandbox checks JWTs only against JWTValidationPubKeys');
  const parsed: KeyObject[] = [];
  for (const pem of keys) {
    try {
      parsed.push(createPublicKey(pem));
    } catch (e) {
      throw new HttpError(500, `unable to parse public key for JWT auth: ${(e as Error).message}`);
    }
  }
  const parts = token.split('.');
  const header = b64json(parts[0]);
  const claims = b64json(parts[1]);
  if (parts.length !== 3 || !header || !claims) throw unauthorized('unable to verify signature of JWT token: error verifying token signature: malformed token');
  const alg = typeof header.alg === 'string' ? header.alg : '';
  const spec = ALGS[alg];
  const data = Buffer.from(`${parts[0]}.${parts[1]}`);
  const sig = Buffer.from(parts[2] ?? '', 'base64url');
  const ok =
    spec !== undefined &&
    sig.length > 0 &&
    parsed.some((key) => {
      try {
        return verify(spec.hash, data, { key, ...(spec.pss ? { padding: 6, saltLength: -1 } : {}), ...(spec.ec ? { dsaEncoding: 'ieee-p1363' as const } : {}) }, sig);
      } catch {
        return false;
      }
    });
  if (!ok) throw unauthorized('unable to verify signature of JWT token: error verifying token signature: failed to verify id token signature');
  const algs = conf.SigningAlgs && conf.SigningAlgs.length > 0 ? conf.SigningAlgs : ['RS256'];
  if (!algs.includes(alg)) throw unauthorized('unable to verify signature of JWT token: token signed with unexpected algorithm');
  const bound = conf.BoundAudiences ?? [];
  if (bound.length > 0) {
    const aud = typeof claims.aud === 'string' ? [claims.aud] : Array.isArray(claims.aud) ? claims.aud : [];
    if (!aud.some((a) => bound.includes(a as string))) throw unauthorized('unable to verify signature of JWT token: invalid audience (aud) claim: audience claim does not match any expected audience');
  }
  const num = (k: string): number => (typeof claims[k] === 'number' ? Math.trunc(claims[k]) : 0);
  const iat = num('iat');
  let exp = num('exp');
  let nbf = num('nbf');
  if (iat === 0 && exp === 0 && nbf === 0) throw unauthorized('unable to verify signature of JWT token: no issued at (iat), not before (nbf), or expiration time (exp) claims in token');
  // A leeway of 0 means cap's default (150 s); a negative one means none.
  const leeway = (ns: number, dflt: number): number => (ns < 0 ? 0 : ns === 0 ? dflt : ns / 1e9);
  if (exp === 0) exp = Math.max(iat, nbf) + leeway(conf.ExpirationLeeway, 150);
  if (nbf === 0) nbf = iat !== 0 ? iat : exp - leeway(conf.NotBeforeLeeway, 150);
  const skew = leeway(conf.ClockSkewLeeway, 60); // go-jose jwt.DefaultLeeway
  const now = nowMs / 1000;
  if (now + skew < nbf) throw unauthorized('unable to verify signature of JWT token: invalid not before (nbf) claim: token not yet valid');
  if (now - skew > exp) throw unauthorized('unable to verify signature of JWT token: invalid expiration time (exp) claim: token is expired');
  if (iat !== 0 && now + skew < iat) throw unauthorized('unable to verify signature of JWT token: invalid issued at (iat) claim: token issued in the future');
  const issuers = conf.BoundIssuer ?? [];
  if (issuers.length > 0) {
    if (!('iss' in claims)) throw unauthorized('auth method specifies BoundIssuers but the provided token does not contain issuer information');
    if (typeof claims.iss !== 'string') throw unauthorized('unable to read iss property of provided token');
    if (!issuers.includes(claims.iss)) throw unauthorized(`invalid JWT issuer: ${claims.iss}`);
  }
  return claims;
}

/** lib/auth/claims.go getClaim: `/a/b` is a JSON pointer, anything else one key. */
function claimAt(all: Claims, name: string): unknown {
  if (!name.startsWith('/')) return all[name];
  let v: unknown = all;
  for (const seg of name.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))) {
    if (Array.isArray(v) && /^\d+$/.test(seg)) v = v[Number(seg)];
    else if (v && typeof v === 'object' && !Array.isArray(v) && Object.prototype.hasOwnProperty.call(v, seg)) v = (v as Claims)[seg];
    else return undefined;
  }
  return v;
}

/** lib/auth/claims.go stringifyClaimValue. */
function asText(v: unknown): string | undefined {
  switch (typeof v) {
    case 'string':
      return v;
    case 'boolean':
      return String(v);
    case 'number':
      return Number.isFinite(v) ? String(BigInt(Math.trunc(v))) : undefined;
    default:
      return Array.isArray(v) ? JSON.stringify(v).replace(/[<>&]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`) : undefined;
  }
}

function mapClaims(conf: AuthMethodConfig, all: Claims): { value: Record<string, string>; list: Record<string, string[]> } {
  const value: Record<string, string> = {};
  for (const [src, dst] of Object.entries(conf.ClaimMappings ?? {})) {
    const raw = claimAt(all, src);
    if (raw === undefined || raw === null) continue;
    const t = asText(raw);
    if (t === undefined) throw new HttpError(500, `error converting claim '${src}' to string from unknown type map[string]interface {}`);
    value[dst] = t;
  }
  const list: Record<string, string[]> = {};
  for (const [src, dst] of Object.entries(conf.ListClaimMappings ?? {})) {
    const raw = claimAt(all, src);
    if (raw === undefined || raw === null) continue;
    if (typeof raw === 'object' && !Array.isArray(raw)) throw new HttpError(500, `"${src}" list claim could not be converted to string list`);
    const items: string[] = [];
    for (const item of Array.isArray(raw) ? raw : [raw]) {
      const t = asText(item);
      if (t === undefined) throw new HttpError(500, `value in "${src}" list claim could not be parsed as string`);
      if (t !== '') items.push(t);
    }
    list[dst] = items;
  }
  return { value, list };
}

/** lib/auth/binder.go InterpolateHIL: only `${name}` variables here; anything else is a HIL error. */
function hil(template: string, vars: Record<string, string>, lower: boolean): string {
  if (!template.includes('${')) return template;
  return template.replace(/\$\{([^}]*)\}/g, (_m, expr: string) => {
    const name = expr.trim();
    const v = vars[name];
    if (v === undefined) throw new HttpError(500, `unknown variable accessed: ${name}`);
    return lower ? v.toLowerCase() : v;
  });
}

/** `PUT|POST /v1/acl/login`. */
export function login(ctx: RequestContext): Reply {
  if (ctx.method !== 'PUT' && ctx.method !== 'POST') throw invalidMethod();
  const f = new GoFields('ACLLoginRequest');
  const o = f.root(decodeBody(ctx.body));
  const methodName = f.string(o, 'AuthMethodName');
  const loginToken = f.string(o, 'LoginToken');
  f.finish();
  requireAclEnabled(ctx);
  const errs = [...(methodName === '' ? ['missing auth method name'] : []), ...(loginToken === '' ? ['missing login token'] : [])];
  if (errs.length > 0) throw badRequest(`invalid login request: ${multierror(errs)}`);
  const region = ctx.cluster.authoritative;
  const method: AuthMethod | undefined = region.authMethods.get(methodName);
  if (!method) throw badRequest(`auth-method "${methodName}" not found`);
  if (method.Type !== 'JWT') throw badRequest(`unsupported auth-method type: ${method.Type}`);
  const conf = method.Config as AuthMethodConfig;
  const claims = validateJwt(loginToken, conf, Date.now());
  const data = mapClaims(conf, claims);
  const vars: Record<string, string> = {};
  for (const dst of Object.values(conf.ClaimMappings ?? {})) vars[`value.${dst}`] = '';
  for (const [k, v] of Object.entries(data.value)) vars[`value.${k}`] = v;

  // Rules in the state store's order (by ID); matching first, then bind names in that order.
  const rules = [...region.bindingRules.values()].filter((r) => r.AuthMethod === method.Name).sort((a, b) => (a.ID < b.ID ? -1 : 1));
  const matching = rules.filter((r) => selectorMatches(r.Selector, data));
  const roles: { ID: string; Name: string }[] = [];
  const policies: string[] = [];
  let management = false;
  for (const r of matching) {
    let name: string;
    try {
      name = hil(r.BindName, vars, true);
    } catch (e) {
      throw new HttpError(500, `cannot compute "${r.BindType}" bind name for bind target: ${(e as Error).message}`);
    }
    if (r.BindType !== 'management' && !/^[a-zA-Z0-9-]{1,128}$/.test(name)) throw new HttpError(500, `computed "${r.BindType}" bind name for bind target is invalid: ${JSON.stringify(name)}`);
    if (r.BindType === 'management') {
      management = true;
      break;
    }
    if (r.BindType === 'role') {
      const role = [...region.aclRoles.values()].find((x) => x.Name === name);
      if (role) roles.push({ ID: role.ID, Name: role.Name });
    } else if (region.aclPolicies.has(name)) policies.push(name);
  }
  if (!management && roles.length === 0 && policies.length === 0) throw badRequest('no role or policy bindings matched');

  const tokenName = hil(method.TokenNameFormat || '${auth_method_type}-${auth_method_name}', { ...vars, auth_method_type: 'JWT', auth_method_name: method.Name }, false);
  const now = nowNs();
  const index = region.nextIndex();
  const token: Record<string, JsonOut> = {
    AccessorID: randomUUID(),
    SecretID: randomUUID(),
    Name: tokenName,
    Type: management ? 'management' : 'client',
    Policies: management ? null : policies,
    Roles: management ? null : roles,
    Global: method.TokenLocality === 'global',
    CreateTime: rfc3339Nano(now),
    ExpirationTime: rfc3339Nano(now + BigInt(method.MaxTokenTTL)),
    ExpirationTTL: method.MaxTokenTTL,
    CreateIndex: index,
    ModifyIndex: index,
  };
  return { status: 200, headers: { 'X-Nomad-Index': String(index) }, json: token };
}
