import type { AnyDesired, DesiredObject } from '../../../src/model/desired.js';
import type { NomadAuthMethodSpec } from '../../../src/kinds/nomad-auth-method/spec.js';
import type { NomadBindingRuleSpec } from '../../../src/kinds/nomad-binding-rule/spec.js';
import type { NomadAclPolicySpec } from '../../../src/kinds/nomad-acl-policy/spec.js';
import type { NomadAclRoleSpec } from '../../../src/kinds/nomad-acl-role/spec.js';

export const RANGE = { file: '/m/auth.yaml', start: { line: 1, col: 1 }, end: { line: 10, col: 1 } };

export function method(name: string, spec: Partial<NomadAuthMethodSpec> = {}, protect = false): DesiredObject<'NomadAuthMethod'> {
  return {
    kind: 'NomadAuthMethod',
    name,
    protect,
    spec: {
      type: 'OIDC',
      tokenLocality: 'global',
      maxTokenTtl: '1h',
      config: { oidcDiscoveryUrl: 'https://idp.example', oidcClientId: `${name}-client`, oidcClientSecret: { fromEnv: 'OIDC_SECRET' } },
      ...spec,
    },
    range: RANGE,
    positions: { '/spec/default': { file: RANGE.file, start: { line: 6, col: 3 }, end: { line: 6, col: 15 } } },
    baseDir: '/m',
  };
}

export function jwt(name: string, spec: Partial<NomadAuthMethodSpec> = {}): DesiredObject<'NomadAuthMethod'> {
  return method(name, { type: 'JWT', tokenLocality: 'local', maxTokenTtl: '30m', config: { jwksUrl: 'https://jwks.example' }, ...spec });
}

export const AUTH_METHOD_POS = { file: '/m/rules.yaml', start: { line: 4, col: 15 }, end: { line: 4, col: 20 } };

export function rule(name: string, spec: Partial<NomadBindingRuleSpec> & { authMethod: string }): DesiredObject<'NomadBindingRule'> {
  return {
    kind: 'NomadBindingRule',
    name,
    protect: false,
    // A templated bind name: these rules test rule mechanics, not that the bound role exists (a plain
    // name would need a role in Nomad or a NomadAclRole document: src/kinds/nomad-binding-rule/remote/checks.ts).
    spec: { bindType: 'role', bindName: `${name}-\${value.team}`, ...spec },
    range: { ...RANGE, file: '/m/rules.yaml' },
    positions: { '/spec/authMethod': AUTH_METHOD_POS },
    baseDir: '/m',
  };
}

export const asAny = (o: DesiredObject<'NomadAuthMethod'> | DesiredObject<'NomadBindingRule'>): AnyDesired => o as AnyDesired;

export function aclPolicy(name: string, rules: string, spec: Partial<NomadAclPolicySpec> = {}): DesiredObject<'NomadAclPolicy'> {
  return { kind: 'NomadAclPolicy', name, protect: false, spec: { rules, ...spec }, range: { ...RANGE, file: '/m/policies.yaml' }, positions: {}, baseDir: '/m' };
}

export function aclRole(name: string, policies: string[], spec: Partial<NomadAclRoleSpec> = {}): DesiredObject<'NomadAclRole'> {
  return { kind: 'NomadAclRole', name, protect: false, spec: { policies, ...spec }, range: { ...RANGE, file: '/m/roles.yaml' }, positions: {}, baseDir: '/m' };
}
