/** Manifests shared by the first-use regression tests: JWT auth methods and a rule, no secrets. */

export function jwtMethod(name: string, opts: { ttl?: string; locality?: 'global' | 'local' } = {}): string {
  return `kind: NomadAuthMethod
name: ${name}
spec:
  type: JWT
  tokenLocality: ${opts.locality ?? 'global'}
  maxTokenTtl: ${opts.ttl ?? '30m'}
  config:
    jwksUrl: https://token.actions.example/.well-known/jwks
    boundAudiences: [https://github.com/acme]
    claimMappings: { repository: repository }
`;
}

export function bindingRule(name: string, authMethod: string): string {
  return `kind: NomadBindingRule
name: ${name}
spec:
  authMethod: ${authMethod}
  selector: 'value.repository == "acme/${name}"'
  bindType: policy
  # A template: the policy is picked at login, so no policy document is needed (a plain name must exist).
  bindName: ${name}-\${value.repository}
`;
}

/** A plan's changes as `action Kind/name` lines (no-ops left out, as `plan --json` does). */
export function actions(planJson: string): string[] {
  const plan = JSON.parse(planJson) as { changes: { kind: string; name: string; action: string; adopt?: boolean; refresh?: string }[] };
  return plan.changes.map((c) => `${c.action}${c.adopt ? ' adopt' : ''}${c.refresh !== undefined ? ` refresh ${c.refresh}` : ''} ${c.kind}/${c.name}`);
}
