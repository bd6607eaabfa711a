import type { AnyDesired } from '../model/desired.js';
import type { KindDocument } from '../model/desired.js';
import { worldFromDesired, worldFromDocuments } from './from-desired.js';
import { loginOutcome, loginTestFailures, outcomesDiffer, type LoginOutcome, type NomadLoginTestSpec } from './login-tests.js';

/*
 * The login tests of a plan as plain data for its views: each test's pass or failure against the
 * desired state, and what its claims get before (what Nomad holds now) and after (the plan applied).
 */

/** The report of a plan's login tests (the plan's `loginTests`, plan/types.ts PlanLoginTests). */
export interface LoginTestsReport {
  liveRead: boolean;
  results: { name: string; at: string; authMethod: string; passed: boolean; failures: string[]; planned: LoginOutcome; live?: LoginOutcome; changed: boolean }[];
}

/** An object as the plan read it: its normalised live fields (the flat paths of each Nomad kind's field map, src/kinds/<kind>/remote/mapping.ts). */
export interface ReadObject {
  kind: string;
  name: string;
  live?: { fields: Record<string, unknown> };
}

const NOMAD_ACL_KINDS = new Set(['NomadAclPolicy', 'NomadAclRole', 'NomadAuthMethod', 'NomadBindingRule']);

/** A live object's fields back into the document shape the login world is built from (only what a login reads). */
function liveDocument(o: ReadObject): KindDocument | undefined {
  const f = o.live?.fields;
  if (!f) return undefined;
  const str = (k: string): string | undefined => (typeof f[k] === 'string' ? (f[k] as string) : undefined);
  const map = (k: string): Record<string, string> | undefined => (f[k] && typeof f[k] === 'object' ? (f[k] as Record<string, string>) : undefined);
  switch (o.kind) {
    case 'NomadAuthMethod': {
      const claimMappings = map('config.claimMappings');
      const listClaimMappings = map('config.listClaimMappings');
      const spec = { type: str('type'), tokenLocality: str('tokenLocality'), maxTokenTtl: str('maxTokenTtl'), tokenNameFormat: str('tokenNameFormat'), config: { ...(claimMappings ? { claimMappings } : {}), ...(listClaimMappings ? { listClaimMappings } : {}) } };
      return { kind: o.kind, name: o.name, spec } as unknown as KindDocument;
    }
    case 'NomadBindingRule': {
      const spec = { authMethod: str('authMethod'), bindType: str('bindType'), ...(str('selector') !== undefined ? { selector: str('selector') } : {}), ...(str('bindName') !== undefined ? { bindName: str('bindName') } : {}) };
      return { kind: o.kind, name: o.name, spec } as unknown as KindDocument;
    }
    case 'NomadAclRole':
      return { kind: o.kind, name: o.name, spec: { policies: Array.isArray(f.policies) ? f.policies : [] } } as unknown as KindDocument;
    case 'NomadAclPolicy':
      return { kind: o.kind, name: o.name, spec: { rules: str('rules') ?? '' } } as unknown as KindDocument;
    default:
      return undefined;
  }
}

/**
 * Every test's result. `read` is what the plan read; the live side counts as read when the plan read
 * any Nomad ACL object (the Nomad provider was in play), and then a method Nomad does not hold yet
 * refuses the login, as Nomad would.
 */
export function planLoginTests(tests: readonly { name: string; at: string; spec: NomadLoginTestSpec }[], desired: readonly AnyDesired[], read: readonly ReadObject[]): LoginTestsReport {
  const nomad = read.filter((o) => NOMAD_ACL_KINDS.has(o.kind));
  const liveRead = nomad.length > 0;
  const liveDocs = nomad.map(liveDocument).filter((d): d is KindDocument => d !== undefined);
  const results = tests.map((t) => {
    const method = t.spec.authMethod;
    const world = worldFromDesired(desired, method);
    const failures = world ? loginTestFailures(t.name, world, t.spec).map((f) => f.summary) : [`login test ${t.name} fails: no NomadAuthMethod named ${method} among the manifests`];
    const planned = loginOutcome(world, method, t.spec.claims);
    const live = liveRead ? loginOutcome(worldFromDocuments(liveDocs, method), method, t.spec.claims) : undefined;
    return {
      name: t.name,
      at: t.at,
      authMethod: method,
      passed: failures.length === 0,
      failures,
      planned,
      ...(live ? { live } : {}),
      changed: live !== undefined && outcomesDiffer(live, planned),
    };
  });
  return { liveRead, results };
}
