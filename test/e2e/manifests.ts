/** Manifests several end-to-end stories share. */

export const LOCAL_STATE_SETTINGS = `kind: Settings
name: default
spec:
  state: { backend: local, path: .converge/state.json }
`;

/** An OIDC auth method; its client secret comes from OKTA_CLIENT_SECRET (set by harness.ts). */
export const OKTA_METHOD = `kind: NomadAuthMethod
name: okta
spec:
  type: OIDC
  tokenLocality: global
  maxTokenTtl: 1h
  config:
    oidcDiscoveryUrl: https://acme.okta.example
    oidcClientId: 0oa1
    oidcClientSecret: { fromEnv: OKTA_CLIENT_SECRET }
    boundAudiences: [0oa1]
    allowedRedirectUris: [http://localhost:4649/oidc/callback]
    listClaimMappings: { groups: groups }
`;

/** The no-code module `lambda` pinned at `pin` (upgrade steering in `upgrade`) and one no-code workspace per name. */
export function noCodeFleet(pin: string, workspaces: string[], upgrade = ''): string {
  const module = `kind: NoCodeModule
name: lambda
spec:
  registryModule: acme/lambda/aws
  versionPin: ${pin}
  enabled: true
${upgrade}`;
  const docs = workspaces.map(
    (n) => `kind: NoCodeWorkspace
name: ${n}
spec:
  module: lambda
  variables:
    - { key: function_name, value: ${n}, category: terraform }
`,
  );
  return [module, ...docs].join('---\n');
}
