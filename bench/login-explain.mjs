// Times one login explanation against 1 000 binding rules and 200 policies, in-process (what
// `converge login explain` and every NomadLoginTest does after loading the manifests). Run after
// `npm run build`:
//   node bench/login-explain.mjs
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { explainLogin } from '../dist/login/index.js';

const RULES = 1000;
const POLICIES = 200;
const ROLES = 100;
const RUNS = 9;
const TARGET_MS = 200;

const policies = new Map();
for (let p = 0; p < POLICIES; p++) {
  policies.set(`policy-${p}`, {
    rules: `namespace "team-${p}" {\n  policy = "write"\n  variables {\n    path "apps/*" {\n      capabilities = ["read"]\n    }\n  }\n}\nnamespace "*" {\n  capabilities = ["list-jobs", "read-job"]\n}\nnode {\n  policy = "read"\n}\nhost_volume "vol-${p}" {\n  policy = "write"\n}\n`,
  });
}
const roles = new Map();
for (let r = 0; r < ROLES; r++) roles.set(`role-${r}`, { policies: [`policy-${(r * 2) % POLICIES}`, `policy-${(r * 2 + 1) % POLICIES}`] });

// Varied selectors: each a few comparisons, a third of them sharing text (as real rule sets do).
const rules = [];
for (let i = 0; i < RULES; i++) {
  const t = i % 3 === 0 ? 'eng' : `team-${i}`;
  const selector = `"${t}" in list.groups and value.email matches ".*@acme\\\\.example$" and not (value.department == "contractors-${i}")`;
  rules.push(
    i % 2 === 0
      ? { label: `rule-${i}`, selector, bindType: 'role', bindName: `role-${i % ROLES}` }
      : { label: `rule-${i}`, selector, bindType: 'policy', bindName: `policy-\${value.team}` },
  );
}
const world = {
  method: { name: 'okta', type: 'OIDC', tokenLocality: 'global', maxTokenTtl: '1h', config: { claimMappings: { email: 'email', team: 'team', '/org/department': 'department' }, listClaimMappings: { groups: 'groups' } } },
  rules,
  roles,
  policies,
};
const claims = { email: 'ada@acme.example', team: '7', org: { department: 'platform' }, groups: ['eng', 'team-7', 'team-11', 'staff'] };

const times = [];
let x;
for (let i = 0; i < RUNS; i++) {
  const t0 = performance.now();
  x = explainLogin(world, claims); // a fresh evaluation each run: no cache carried over
  times.push(performance.now() - t0);
}
const first = times[0];
times.sort((a, b) => a - b);
const matched = x.rules.filter((r) => r.matched).length;
console.log(
  `login-explain: ${RULES} binding rules (${matched} matching), ${POLICIES} policies, ${ROLES} roles: ` +
    `median ${times[Math.floor(times.length / 2)].toFixed(1)} ms, best ${times[0].toFixed(1)} ms, first (cold) run ${first.toFixed(1)} ms ` +
    `(target < ${TARGET_MS} ms; load average ${loadavg()[0].toFixed(1)}); outcome ${x.outcome}, ${x.token?.roles.length ?? 0} roles, ${x.token?.effectivePolicies.length ?? 0} policies`,
);
