/** Manifests several end-to-end stories share. */

export const LOCAL_STATE_SETTINGS = `kind: Settings
name: default
spec:
  state: { backend: local, path: .converge/state.json }
`;

/** The OIDC auth method `okta` with its client secret given as `secret` (a YAML `fromEnv` / `fromFile` reference, line 10). */
export function oktaMethod(secret: string): string {
  return OKTA_METHOD.replace('{ fromEnv: OKTA_CLIENT_SECRET }', secret);
}

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

/** Settings of the HCP Terraform stories: organization acme, state in a local file. */
export const TFE_SETTINGS = `kind: Settings
name: settings
spec:
  tfe: { organization: acme }
  state: { backend: local, path: .converge/state.json }
`;

/** The NoCodeModule `vpc` (acme/vpc/aws, which the sandbox's registry has at 1.3.0, 1.4.0 and 1.5.0). */
export function vpcModule(versionPin = '1.4.0'): string {
  return `kind: NoCodeModule
name: vpc
spec:
  registryModule: acme/vpc/aws
  versionPin: ${versionPin}
`;
}

/**
 * The NoCodeModule `lambda` (acme/lambda/aws at 1.1.0) and its workspace `lambda-dev` with two plain
 * variables; `workspaceSpec` adds lines, indented two spaces, to the workspace's spec.
 */
export function lambdaManifests(workspaceSpec = ''): string {
  return `kind: NoCodeModule
name: lambda
spec:
  registryModule: acme/lambda/aws
  versionPin: 1.1.0
---
kind: NoCodeWorkspace
name: lambda-dev
spec:
  module: lambda
${workspaceSpec}  variables:
    - key: function_name
      value: hello-dev
    - key: runtime
      value: nodejs20.x
`;
}

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
