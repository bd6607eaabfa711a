import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** One Nomad auth method (nomad.yaml) and one no-code module (tfe.yaml): the smallest manifests that make each service be read. */
export async function writeOneOfEach(dir: string): Promise<void> {
  await writeFile(
    join(dir, 'nomad.yaml'),
    `kind: NomadAuthMethod
name: gh
spec:
  type: JWT
  tokenLocality: local
  maxTokenTtl: 30m
  config:
    jwksUrl: https://token.actions.example/.well-known/jwks
    boundAudiences: [nomad]
`,
  );
  await writeFile(join(dir, 'tfe.yaml'), 'kind: NoCodeModule\nname: vpc\nspec:\n  registryModule: acme/vpc/aws\n');
}

/**
 * Two OIDC auth methods holding every kind of Nomad secret: a client secret from OKTA_CLIENT_SECRET,
 * one from secrets/azure-secret.txt, and a client-assertion key from secrets/signing-key.pem.
 */
export function secretAuthMethods(ttl = '1h'): string {
  return `kind: NomadAuthMethod
name: okta
spec:
  type: OIDC
  tokenLocality: global
  maxTokenTtl: ${ttl}
  default: true
  config:
    oidcDiscoveryUrl: https://acme.okta.example
    oidcClientId: 0oa1
    oidcClientSecret: { fromEnv: OKTA_CLIENT_SECRET }
    boundAudiences: [0oa1]
    allowedRedirectUris: [https://nomad.example.com/ui/settings/tokens]
    claimMappings: { email: email }
---
kind: NomadAuthMethod
name: azure
spec:
  type: OIDC
  tokenLocality: local
  maxTokenTtl: ${ttl}
  config:
    oidcDiscoveryUrl: https://login.microsoft.example/tenant/v2.0
    oidcClientId: azure-app
    oidcClientSecret: { fromFile: secrets/azure-secret.txt }
    oidcClientAssertion:
      keySource: private_key
      audience: [https://login.microsoft.example]
      keyAlgorithm: RS256
      privateKey:
        pemKey: { fromFile: secrets/signing-key.pem }
        keyId: key-1
    boundAudiences: [azure-app]
    allowedRedirectUris: [https://nomad.example.com/ui/settings/tokens]
`;
}

/** A no-code module and a workspace with a sensitive variable from VPC_DB_PASSWORD and one from secrets/api-key.txt. */
export const SECRET_WORKSPACE = `kind: NoCodeModule
name: vpc
spec:
  registryModule: acme/vpc/aws
  versionPin: 1.4.0
  enabled: true
---
kind: NoCodeWorkspace
name: vpc-dev
spec:
  module: vpc
  project: Platform
  variables:
    - key: region
      value: eu-west-1
    - key: db_password
      value: { fromEnv: VPC_DB_PASSWORD }
      sensitive: true
    - key: API_KEY
      value: { fromFile: secrets/api-key.txt }
      category: env
      sensitive: true
  upgrade: { confirm: auto }
  deletion: safe
`;
