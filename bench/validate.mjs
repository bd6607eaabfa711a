// Times loadManifests on 1 000 documents in 100 files. Run after `npm run build`:
//   node bench/validate.mjs
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadManifests } from '../dist/manifest/index.js';

const FILES = 100;
const DOCS_PER_FILE = 10;
const RUNS = 5;
const TARGET_MS = 500;

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

const dir = await mkdtemp(join(tmpdir(), 'converge-bench-validate-'));
try {
  let n = 0;
  for (let f = 0; f < FILES; f++) {
    const docs = [];
    for (let d = 0; d < DOCS_PER_FILE; d++) {
      // pairs: a method then its rule, a module then its workspace
      const kind = (d % 2) + (f % 2) * 2;
      docs.push(makers[kind](n++));
    }
    const sub = join(dir, `team-${f % 10}`);
    await mkdir(sub, { recursive: true });
    await writeFile(join(sub, `file-${f}.yaml`), docs.join('---\n'));
  }
  const times = [];
  let result;
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    result = await loadManifests([dir], { cwd: dir });
    times.push(performance.now() - t0);
  }
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0 || result.desired.objects.length !== FILES * DOCS_PER_FILE) {
    console.error(`unexpected result: ${result.desired.objects.length} objects, ${errors.length} errors`, errors.slice(0, 3));
    process.exitCode = 1;
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  console.log(
    `validate: ${FILES * DOCS_PER_FILE} documents in ${FILES} files: median ${median.toFixed(0)} ms, best ${times[0].toFixed(0)} ms (target ≤ ${TARGET_MS} ms)`,
  );
} finally {
  await rm(dir, { recursive: true, force: true });
}
