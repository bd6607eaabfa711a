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

/** Runs one test; each expectation that does not hold is an error at its own line. */
function runTest(d: RuleSink, docs: readonly RuleDoc[], t: NomadLoginTestSpec): void {
  const code = 'nomad.login-test.failed';
  const world = worldFromDocs(docs, t.authMethod);
  if (!world) {
    d.error('nomad.login-test.no-such-method', '/spec/authMethod', `no NomadAuthMethod named ${t.authMethod} among the manifests`, 'Name an auth method defined in these manifests: login tests run offline against them.');
    return;
  }
  const x = explainLogin(world, t.claims);
  const e = t.expect;
  const hint = `See why with: converge login explain --method ${t.authMethod} --claims FILE (the claims as JSON).`;
  const refused = x.outcome === 'refused';
  if (e.refused !== undefined && e.refused !== refused) {
    d.error(code, '/spec/expect/refused', `login test ${d.doc.name} fails: expected the login to be ${e.refused ? 'refused' : 'accepted'}, but ${got(x)}`, hint);
  }
  const management = x.token?.type === 'management';
  if (e.management !== undefined && e.management !== management) {
    d.error(code, '/spec/expect/management', `login test ${d.doc.name} fails: expected ${e.management ? '' : 'no '}management token, but ${got(x)}`, hint);
  }
  const roles = x.token?.roles ?? [];
  if (e.roles && !sameSet(e.roles, roles)) {
    d.error(code, '/spec/expect/roles', `login test ${d.doc.name} fails: expected roles ${list(e.roles)}, but ${got(x)}`, hint);
  }
  const policies = [...new Set((x.token?.effectivePolicies ?? []).map((p) => p.name))];
  if (e.policies && !sameSet(e.policies, policies)) {
    d.error(code, '/spec/expect/policies', `login test ${d.doc.name} fails: expected policies ${list(e.policies)}, but ${got(x)}`, hint);
  }
  const may = (c: NsCap): boolean => {
    if (refused) return false;
    if (management) return true;
    const caps = x.token?.grants ? namespaceCapabilities(x.token.grants, c.namespace) : [];
    return !caps.includes('deny') && caps.includes(c.capability);
  };
  (e.allow ?? []).forEach((c, i) => {
    if (!may(c)) d.error(code, `/spec/expect/allow/${i}`, `login test ${d.doc.name} fails: expected ${c.capability} in namespace ${c.namespace}, but ${refused ? got(x) : 'the token does not have it'}`, hint);
  });
  (e.deny ?? []).forEach((c, i) => {
    if (may(c)) d.error(code, `/spec/expect/deny/${i}`, `login test ${d.doc.name} fails: expected no ${c.capability} in namespace ${c.namespace}, but the token has it`, hint);
  });
}

/** Every NomadLoginTest of the run (rules across documents: the tests need the whole chain). */
export function checkLoginTests<D extends RuleDoc>(docs: readonly D[], sinkFor: SinkFor<D>): void {
  for (const doc of docs) {
    if (doc.kind !== LOGIN_TEST_KIND || !doc.schemaValid) continue;
    runTest(sinkFor(doc), docs, doc.value.spec as NomadLoginTestSpec);
  }
}
