/*
 * From the claims of a token to the identity Nomad's binding rules see, as hashicorp/nomad
 * lib/auth/claims.go (`extractClaims`, `getClaim`, `stringifyClaimValue`, `normalizeList`) and
 * lib/auth/identity.go (`NewIdentity`) do it. docs/reference/nomad-login.md explains each step.
 */

export type Claims = Record<string, unknown>;

/** What selectors evaluate (nomad/structs/acl.go ACLAuthClaims: `bexpr:"value"` and `bexpr:"list"`). */
export interface AuthClaims {
  value: Record<string, string>;
  list: Record<string, string[]>;
}

export interface Identity {
  claims: AuthClaims;
  /** `value.<name>` → value: what a bind name may interpolate. */
  claimMappings: Record<string, string>;
}

export interface MappingConfig {
  claimMappings?: Record<string, string>;
  listClaimMappings?: Record<string, string>;
}

/** A claim Nomad cannot map: the login fails with this error (lib/auth/claims.go extractMappings). */
export class ClaimError extends Error {}

/**
 * lib/auth/claims.go getClaim: a name starting with `/` is a JSON pointer (mitchellh/pointerstructure,
 * through maps and list indexes, `~1` for `/` and `~0` for `~`); any other name is one top-level key,
 * dots included. A pointer that leads nowhere is a missing claim.
 */
export function getClaim(all: Claims, name: string): unknown {
  if (!name.startsWith('/')) return all[name];
  let cur: unknown = all;
  for (const raw of name.slice(1).split('/')) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(cur)) {
      if (!/^\d+$/.test(part)) return undefined;
      cur = cur[Number(part)];
    } else if (cur !== null && typeof cur === 'object') {
      cur = Object.prototype.hasOwnProperty.call(cur, part) ? (cur as Record<string, unknown>)[part] : undefined;
    } else return undefined;
    if (cur === undefined) return undefined;
  }
  return cur;
}

/** Go's encoding/json escapes <, > and & in strings (HTML-safe by default). */
function goJson(v: unknown): string {
  return JSON.stringify(v).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}

/**
 * lib/auth/claims.go stringifyClaimValue: strings as they are, booleans as `true`/`false`, numbers
 * truncated to an integer (go-oidc decodes them as float64 and Nomad formats `int64(v)`), a list as its
 * JSON text. Anything else (an object) cannot be mapped.
 */
export function stringifyClaim(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') return Number.isFinite(v) ? BigInt(Math.trunc(v)).toString() : undefined;
  if (Array.isArray(v)) return goJson(v);
  return undefined;
}

/** lib/auth/claims.go extractClaims (a missing or null claim is skipped). */
export function extractClaims(config: MappingConfig, all: Claims): AuthClaims {
  const value: Record<string, string> = {};
  for (const [source, target] of Object.entries(config.claimMappings ?? {})) {
    const raw = getClaim(all, source);
    if (raw === undefined || raw === null) continue;
    const s = stringifyClaim(raw);
    if (s === undefined) throw new ClaimError(`error converting claim '${source}' to string from unknown type (an object)`);
    value[target] = s;
  }
  const list: Record<string, string[]> = {};
  for (const [source, target] of Object.entries(config.listClaimMappings ?? {})) {
    const raw = getClaim(all, source);
    if (raw === undefined || raw === null) continue;
    // normalizeList: one scalar stands for a list of one.
    const items = Array.isArray(raw) ? raw : typeof raw === 'object' ? undefined : [raw];
    if (items === undefined) throw new ClaimError(`${JSON.stringify(source)} list claim could not be converted to string list`);
    const out: string[] = [];
    for (const item of items) {
      const s = stringifyClaim(item);
      if (s === undefined) throw new ClaimError(`value ${goJson(item)} in ${JSON.stringify(source)} list claim could not be parsed as string`);
      if (s !== '') out.push(s);
    }
    list[target] = out;
  }
  return { value, list };
}

/** lib/auth/identity.go NewIdentity: every mapped name exists for bind names, "" when its claim is missing. */
export function newIdentity(config: MappingConfig, claims: AuthClaims): Identity {
  const claimMappings: Record<string, string> = {};
  for (const target of Object.values(config.claimMappings ?? {})) claimMappings[`value.${target}`] = '';
  for (const [k, v] of Object.entries(claims.value)) claimMappings[`value.${k}`] = v;
  return { claims, claimMappings };
}

/**
 * The claims in a file: a JSON object, or a JWT (three base64url parts) whose payload is read. The
 * signature is not checked: offline there is no key to check it with, and the question is what the
 * claims grant, not whether they are genuine.
 */
export function readClaimsText(text: string): { claims: Claims; jwt: boolean } | { error: string } {
  const t = text.trim();
  if (/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(t)) {
    const payload = t.split('.')[1] ?? '';
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      return { error: 'the JWT\'s payload (its second part) is not base64url-encoded JSON' };
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return { error: 'the JWT\'s payload is not a JSON object' };
    return { claims: parsed as Claims, jwt: true };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(t);
  } catch (e) {
    return { error: `neither JSON claims nor a JWT: ${(e as Error).message}` };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return { error: 'the claims must be one JSON object, like {"sub": "alice", "groups": ["dev"]}' };
  return { claims: parsed as Claims, jwt: false };
}
