import { evaluateSelector, type SelectorCache, type SelectorStep } from './bexpr.js';
import { computeBindName, interpolate } from './bind-name.js';
import { mergeGrants, parsePolicyBlocks, type Grants } from './capabilities.js';
import { ClaimError, extractClaims, newIdentity, type AuthClaims, type Claims, type MappingConfig } from './claims.js';

/*
 * What Nomad does with one login, as plain data: hashicorp/nomad nomad/acl_endpoint.go Login (claims →
 * identity → bindings → token), lib/auth/binder.go Bind, and nomad/auth/auth.go resolveACLFromToken
 * for what the token may then do. docs/reference/nomad-login.md walks through it with its sources.
 */

export const LOGIN_EXPLANATION_FORMAT_VERSION = '1.0';

export interface LoginMethod {
  name: string;
  type: string;
  tokenLocality?: string;
  maxTokenTtl?: string;
  tokenNameFormat?: string;
  config: MappingConfig;
}

export interface LoginRule {
  /** How people find the rule: its manifest name or live ID. */
  label: string;
  selector?: string;
  bindType: 'role' | 'policy' | 'management';
  bindName?: string;
  /** file:line of its manifest, when known. */
  at?: string;
}

/** What the evaluation reads: the method's rules in order, and every role and policy by name. */
export interface LoginWorld {
  method: LoginMethod;
  rules: readonly LoginRule[];
  roles: ReadonlyMap<string, { policies: readonly string[] }>;
  policies: ReadonlyMap<string, { rules: string }>;
}

export interface RuleExplanation {
  rule: string;
  at?: string;
  selector: string;
  bindType: LoginRule['bindType'];
  bindNameTemplate: string;
  matched: boolean;
  why: string;
  steps: SelectorStep[];
  /** For a matched rule: the computed name, and what it binds. */
  bindName?: string;
  bindNameError?: string;
  /** `bound`: the role or policy exists and is linked; `no-such-role` / `no-such-policy`: Nomad skips it. */
  binding?: 'bound' | 'management' | 'no-such-role' | 'no-such-policy';
}

export interface LoginExplanation {
  formatVersion: string;
  method: string;
  /** What the selectors saw. Absent when the claims could not be mapped. */
  identity?: AuthClaims;
  rules: RuleExplanation[];
  outcome: 'granted' | 'refused';
  /** Nomad's error for a refused login, with why. */
  refusal?: string;
  token?: {
    type: 'management' | 'client';
    name: string;
    global: boolean;
    ttl?: string;
    roles: string[];
    /** Policies linked by policy rules. */
    policies: string[];
    /** Every policy the token holds, directly or through a role, with where it comes from. */
    effectivePolicies: { name: string; via: string }[];
    /** Policies a role names that do not exist: Nomad ignores them. */
    missingPolicies: { name: string; via: string }[];
    /** Undefined for a management token, which may do everything. */
    grants?: Grants;
  };
  notes: string[];
}

export interface ExplainOptions {
  selectorCache?: SelectorCache;
  /** Parsed policies by name, reused across explanations. */
  policyCache?: Map<string, ReturnType<typeof parsePolicyBlocks>>;
}

export function explainLogin(world: LoginWorld, claims: Claims, opts: ExplainOptions = {}): LoginExplanation {
  const base = { formatVersion: LOGIN_EXPLANATION_FORMAT_VERSION, method: world.method.name };
  const notes: string[] = [];
  let identityClaims: AuthClaims;
  try {
    identityClaims = extractClaims(world.method.config, claims);
  } catch (e) {
    if (!(e instanceof ClaimError)) throw e;
    return { ...base, rules: [], outcome: 'refused', refusal: `the claims cannot be mapped: ${e.message}`, notes };
  }
  const identity = newIdentity(world.method.config, identityClaims);
  const cache = opts.selectorCache ?? new Map();
  const regexes = new Map<string, RegExp>();

  const rules: RuleExplanation[] = [];
  let refusal: string | undefined;
  let management = false;
  const roles: string[] = [];
  const policies: string[] = [];
  for (const r of world.rules) {
    const sel = evaluateSelector(r.selector, identity.claims, cache, regexes);
    const out: RuleExplanation = {
      rule: r.label,
      ...(r.at ? { at: r.at } : {}),
      selector: r.selector ?? '',
      bindType: r.bindType,
      bindNameTemplate: r.bindName ?? '',
      matched: sel.matched,
      why: sel.reason,
      steps: sel.steps,
    };
    rules.push(out);
    if (!sel.matched) continue;
    const name = computeBindName(r.bindType, r.bindName, identity.claimMappings);
    if (!name.ok) {
      if (name.name !== undefined) out.bindName = name.name;
      out.bindNameError = name.reason;
      refusal ??= `binding rule ${r.label}: ${name.reason}`;
      continue;
    }
    out.bindName = name.name;
    if (r.bindType === 'management') {
      out.binding = 'management';
      management = true;
    } else if (r.bindType === 'role') {
      out.binding = world.roles.has(name.name) ? 'bound' : 'no-such-role';
      if (out.binding === 'bound' && !roles.includes(name.name)) roles.push(name.name);
    } else {
      out.binding = world.policies.has(name.name) ? 'bound' : 'no-such-policy';
      if (out.binding === 'bound' && !policies.includes(name.name)) policies.push(name.name);
    }
  }
  const identityOut = { identity: identity.claims };
  if (refusal !== undefined) {
    if (management) {
      // lib/auth/binder.go Bind visits matching rules in the state store's order (by rule ID) and returns
      // at the first management rule or the first bad bind name: which comes first depends on the IDs.
      notes.push('A management rule matched too: Nomad stops at whichever of the two it visits first (rules are visited in ID order), so this login may instead succeed as management.');
    }
    return { ...base, ...identityOut, rules, outcome: 'refused', refusal, notes };
  }
  if (!management && roles.length === 0 && policies.length === 0) {
    const matched = rules.filter((r) => r.matched).length;
    const why = matched === 0 ? 'no binding rule of the method matched the claims' : 'the matching rules name no role or policy that exists';
    return { ...base, ...identityOut, rules, outcome: 'refused', refusal: `no role or policy bindings matched (${why})`, notes };
  }
  const tokenName = interpolate(world.method.tokenNameFormat || '${auth_method_type}-${auth_method_name}', { auth_method_type: world.method.type, auth_method_name: world.method.name, ...identity.claimMappings }, false);
  if ('error' in tokenName) {
    return { ...base, ...identityOut, rules, outcome: 'refused', refusal: `the token name format cannot be computed: ${tokenName.error}`, notes };
  }
  const common = { name: tokenName.text, global: world.method.tokenLocality === 'global', ...(world.method.maxTokenTtl ? { ttl: world.method.maxTokenTtl } : {}) };
  if (management) {
    return { ...base, ...identityOut, rules, outcome: 'granted', token: { type: 'management', ...common, roles: [], policies: [], effectivePolicies: [], missingPolicies: [] }, notes };
  }
  const effective: { name: string; via: string }[] = policies.map((name) => ({ name, via: 'binding rule' }));
  const missing: { name: string; via: string }[] = [];
  for (const role of roles) {
    for (const p of world.roles.get(role)?.policies ?? []) {
      (world.policies.has(p) ? effective : missing).push({ name: p, via: `role ${role}` });
    }
  }
  const policyCache = opts.policyCache ?? new Map();
  const parsed = effective.map((p) => {
    let blocks = policyCache.get(p.name);
    if (!blocks) {
      try {
        blocks = parsePolicyBlocks(world.policies.get(p.name)?.rules ?? '');
      } catch {
        notes.push(`policy ${p.name} does not parse: its grants are left out (validate reports where).`);
        blocks = [];
      }
      policyCache.set(p.name, blocks);
    }
    return blocks;
  });
  return {
    ...base,
    ...identityOut,
    rules,
    outcome: 'granted',
    token: { type: 'client', ...common, roles, policies, effectivePolicies: effective, missingPolicies: missing, grants: mergeGrants(parsed) },
    notes,
  };
}
