// The manifest set bench/validate.mjs and bench/yaml-readers.mjs load: NomadAuthMethod, NomadBindingRule,
// NoCodeModule and NoCodeWorkspace documents in many files, as a large repository of them would hold.
import { writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';

function authMethod(n) {
  return `kind: NomadAuthMethod
name: oidc-${n}
spec:
  type: OIDC
  tokenLocality: global
  maxTokenTtl: 1h30m
  config:
    oidcDiscoveryUrl: https://idp-${n}.example.com
    oidcClientId: client-${n}
    oidcClientSecret: { fromEnv: OIDC_SECRET_${n} }
    oidcScopes: [openid, groups]
    boundAudiences: [client-${n}]
    allowedRedirectUris: [http://localhost:4649/oidc/callback]
    claimMappings: { email: email, name: name }
    listClaimMappings: { groups: groups }
    expirationLeeway: 30s
`;
}
function bindingRule(n) {
  return `kind: NomadBindingRule
name: rule-${n}
spec:
  authMethod: oidc-${n - 1}
  description: Rule number ${n}
  selector: '"team-${n}" in list.groups and value.email matches ".*@acme\\\\.example" and not (list.groups is empty)'
  bindType: role
  bindName: role-${n}
`;
}
function module(n) {
  return `kind: NoCodeModule
name: mod-${n}
spec:
  registryModule: acme/mod${n}/aws
  versionPin: 1.${n % 10}.0
  variableOptions:
    - variableName: region
      variableType: string
      options: [us-east-1, eu-west-1]
`;
}
function workspace(n) {
  return `kind: NoCodeWorkspace
name: ws-${n}
spec:
  module: mod-${n - 1}
  project: Platform
  variables:
    - key: region
      value: eu-west-1
    - key: db_password
      sensitive: true
      value: { fromEnv: DB_PASSWORD_${n} }
  upgrade: { confirm: auto }
`;
}
const makers = [authMethod, bindingRule, module, workspace];

/** Writes `files` files of `docsPerFile` documents (a method then its rule, a module then its workspace). */
export async function writeCorpus(dir, files, docsPerFile) {
  let n = 0;
  for (let f = 0; f < files; f++) {
    const docs = [];
    for (let d = 0; d < docsPerFile; d++) {
      const kind = (d % 2) + (f % 2) * 2;
      docs.push(makers[kind](n++));
    }
    const sub = join(dir, `team-${f % 10}`);
    await mkdir(sub, { recursive: true });
    await writeFile(join(sub, `file-${f}.yaml`), docs.join('---\n'));
  }
}
