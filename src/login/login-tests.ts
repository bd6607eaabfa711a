import type { RuleDoc, RuleSink, SinkFor } from '../kinds/rule-sink.js';
import { LOGIN_TEST_KIND } from '../model/kinds.js';
import { namespaceCapabilities } from './capabilities.js';
import { explainLogin, type LoginExplanation, type LoginRule, type LoginWorld } from './explain.js';

/*
 * NomadLoginTest documents: a login (an auth method and claims) and what Nomad must then give. validate
 * and plan run each against the documents of the run (the desired state) before anything is sent; one
 * that does not hold is an error at the expectation that failed.
 */

interface NsCap {
  namespace: string;
  capability: string;
}

export interface NomadLoginTestSpec {
  authMethod: string;
  claims: Record<string, unknown>;
  expect: { refused?: boolean; management?: boolean; roles?: string[]; policies?: string[]; allow?: NsCap[]; deny?: NsCap[] };
}

const spec = (d: RuleDoc): Record<string, unknown> => (d.value.spec ?? {}) as Record<string, unknown>;

/** The login world of a method from the loaded documents (schema-valid ones only). */
export function worldFromDocs(docs: readonly RuleDoc[], method: string): LoginWorld | undefined {
  const valid = docs.filter((d) => d.schemaValid);
  const m = valid.find((d) => d.kind === 'NomadAuthMethod' && d.name === method);
  if (!m) return undefined;
  const s = spec(m) as { type: string; tokenLocality?: string; maxTokenTtl?: string; tokenNameFormat?: string; config?: { claimMappings?: Record<string, string>; listClaimMappings?: Record<string, string> } };
  const rules: LoginRule[] = [];
  const roles = new Map<string, { policies: readonly string[] }>();
  const policies = new Map<string, { rules: string }>();
  for (const d of valid) {
    const ds = spec(d);
    if (d.kind === 'NomadBindingRule' && ds.authMethod === method) {
      rules.push({ label: d.name, at: `${d.file}:${d.tree.range.start.line}`, ...(ds as Omit<LoginRule, 'label'>) });
    } else if (d.kind === 'NomadAclRole') roles.set(d.name, { policies: (ds.policies as string[] | undefined) ?? [] });
    else if (d.kind === 'NomadAclPolicy') policies.set(d.name, { rules: (ds.rules as string | undefined) ?? '' });
  }
  return {
    method: {
      name: method,
      type: s.type,
      ...(s.tokenLocality ? { tokenLocality: s.tokenLocality } : {}),
      ...(s.maxTokenTtl ? { maxTokenTtl: s.maxTokenTtl } : {}),
      ...(s.tokenNameFormat ? { tokenNameFormat: s.tokenNameFormat } : {}),
      config: { ...(s.config?.claimMappings ? { claimMappings: s.config.claimMappings } : {}), ...(s.config?.listClaimMappings ? { listClaimMappings: s.config.listClaimMappings } : {}) },
    },
    rules,
    roles,
    policies,
  };
}

const sameSet = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');
const list = (xs: readonly string[]): string => (xs.length === 0 ? 'none' : xs.join(', '));

/** What the login got, in one phrase, for failure messages. */
function got(x: LoginExplanation): string {
  if (x.outcome === 'refused') return `Nomad refuses it: ${x.refusal ?? ''}`;
  if (x.token?.type === 'management') return 'it gets a management token';
  return `it gets roles ${list(x.token?.roles ?? [])} and policies ${list((x.token?.effectivePolicies ?? []).map((p) => p.name))}`;
}

/** An expectation of a test that does not hold: where (a JSON pointer into the document) and what. */
export interface LoginTestFailure {
  pointer: string;
  summary: string;
}

/** Each expectation of one test that does not hold against the world (none: the test passes). */
export function loginTestFailures(name: string, world: LoginWorld, t: NomadLoginTestSpec): LoginTestFailure[] {
  const out: LoginTestFailure[] = [];
  const fail = (pointer: string, what: string): void => {
    out.push({ pointer, summary: `login test ${name} fails: ${what}` });
  };
  const x = explainLogin(world, t.claims);
  const e = t.expect;
  const refused = x.outcome === 'refused';
  if (e.refused !== undefined && e.refused !== refused) fail('/spec/expect/refused', `expected the login to be ${e.refused ? 'refused' : 'accepted'}, but ${got(x)}`);
  const management = x.token?.type === 'management';
  if (e.management !== undefined && e.management !== management) fail('/spec/expect/management', `expected ${e.management ? '' : 'no '}management token, but ${got(x)}`);
  const roles = x.token?.roles ?? [];
  if (e.roles && !sameSet(e.roles, roles)) fail('/spec/expect/roles', `expected roles ${list(e.roles)}, but ${got(x)}`);
  const policies = [...new Set((x.token?.effectivePolicies ?? []).map((p) => p.name))];
  if (e.policies && !sameSet(e.policies, policies)) fail('/spec/expect/policies', `expected policies ${list(e.policies)}, but ${got(x)}`);
  const may = (c: NsCap): boolean => {
    if (refused) return false;
    if (management) return true;
    const caps = x.token?.grants ? namespaceCapabilities(x.token.grants, c.namespace) : [];
    return !caps.includes('deny') && caps.includes(c.capability);
  };
  (e.allow ?? []).forEach((c, i) => {
    if (!may(c)) fail(`/spec/expect/allow/${i}`, `expected ${c.capability} in namespace ${c.namespace}, but ${refused ? got(x) : 'the token does not have it'}`);
  });
  (e.deny ?? []).forEach((c, i) => {
    if (may(c)) fail(`/spec/expect/deny/${i}`, `expected no ${c.capability} in namespace ${c.namespace}, but the token has it`);
  });
  return out;
}

/** What a login comes to, as compared between the live state and the plan: refused, or the token's kind, roles and policies. */
export interface LoginOutcome {
  refused: boolean;
  /** Nomad's reason, for a refused login. */
  refusal?: string;
  management: boolean;
  roles: string[];
  policies: string[];
}

/** The outcome of a login; a world without the method (not in Nomad yet) refuses it as Nomad would. */
export function loginOutcome(world: LoginWorld | undefined, method: string, claims: Record<string, unknown>): LoginOutcome {
  if (!world) return { refused: true, refusal: `auth-method "${method}" not found`, management: false, roles: [], policies: [] };
  const x = explainLogin(world, claims);
  if (x.outcome === 'refused') return { refused: true, refusal: x.refusal ?? '', management: false, roles: [], policies: [] };
  return {
    refused: false,
    management: x.token?.type === 'management',
    roles: [...(x.token?.roles ?? [])].sort(),
    policies: [...new Set((x.token?.effectivePolicies ?? []).map((p) => p.name))].sort(),
  };
}

/** Whether two outcomes differ in what the comparison looks at (refused, management, roles, policies). */
export function outcomesDiffer(a: LoginOutcome, b: LoginOutcome): boolean {
  return a.refused !== b.refused || a.management !== b.management || !sameSet(a.roles, b.roles) || !sameSet(a.policies, b.policies);
}

/** Runs one test; each expectation that does not hold is an error at its own line. */
function runTest(d: RuleSink, docs: readonly RuleDoc[], t: NomadLoginTestSpec): void {
  const world = worldFromDocs(docs, t.authMethod);
  if (!world) {
    d.error('nomad.login-test.no-such-method', '/spec/authMethod', `no NomadAuthMethod named ${t.authMethod} among the manifests`, 'Name an auth method defined in these manifests: login tests run offline against them.');
    return;
  }
  const hint = `See why with: converge login explain --method ${t.authMethod} --claims FILE (the claims as JSON).`;
  for (const f of loginTestFailures(d.doc.name, world, t)) d.error('nomad.login-test.failed', f.pointer, f.summary, hint);
}

/** Every NomadLoginTest of the run (rules across documents: the tests need the whole chain). */
export function checkLoginTests<D extends RuleDoc>(docs: readonly D[], sinkFor: SinkFor<D>): void {
  for (const doc of docs) {
    if (doc.kind !== LOGIN_TEST_KIND || !doc.schemaValid) continue;
    runTest(sinkFor(doc), docs, doc.value.spec as NomadLoginTestSpec);
  }
}
