// A fleet of 2 000 workspaces written two ways: one NoCodeWorkspaceSet document (a 40 × 50 matrix, under 40
// lines) and 2 000 NoCodeWorkspace documents. Times validate (loadManifests) and plan (the library against the
// sandbox, an empty state: every workspace a create) for each, in one process, alternating the two so a busy
// neighbour moves both alike, and prints the medians and the ratio set ÷ written. Then applies a smaller fleet
// (BENCH_APPLY_WORKSPACES, default 200: a 10 × 20 matrix; 0 skips it) both ways, each into a sandbox of its
// own, and prints both times, requests and the ratio: an apply is paced by HCP Terraform's rate limit, so
// 2 000 creates would take minutes each. Target: the set costs no more than the written fleet (ratio ≤ 1.0,
// within noise). Run after `npm run build`:
//   node bench/workspace-set.mjs
import { performance } from 'node:perf_hooks';
import { loadManifests } from '../dist/manifest/index.js';
import { apply, libraryHost, plan } from '../dist/operations/index.js';
import { startSandbox } from '../dist/sandbox/index.js';
import { table, tempDir } from './lib.mjs';

const TEAMS = 40;
const ENVS = 50;
const N = TEAMS * ENVS;
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const APPLY_N = Number(process.env.BENCH_APPLY_WORKSPACES ?? 200);
const pad = (i) => String(i).padStart(2, '0');
const names = (prefix, n) => Array.from({ length: n }, (_, i) => `${prefix}${pad(i)}`);

const SETTINGS = 'kind: Settings\nname: s\nspec:\n  tfe: { organization: acme }\n  state: { backend: local, path: state.json }\n';
const MODULE = 'kind: NoCodeModule\nname: vpc\nspec:\n  registryModule: acme/vpc/aws\n  versionPin: 1.4.0\n';
/** A workspace's spec fields: the same text in the set's template (with placeholders) and in each written document. */
const fields = (team, env, indent) =>
  [
    'module: vpc',
    'project: Platform',
    `description: "VPC of ${team} in ${env}"`,
    'variables:',
    `  - { key: team, value: "${team}" }`,
    `  - { key: env, value: "${env}" }`,
    '  - { key: region, value: eu-west-1 }',
    '  - { key: db_password, value: { fromEnv: DB_PASSWORD }, sensitive: true }',
    'upgrade: { confirm: auto }',
    'deletion: safe',
  ].map((l) => `${indent}${l}\n`).join('');
/** The fleet of teams × envs as one set document and as written documents. */
function fleet(teams, envs) {
  const set = `${MODULE}---
kind: NoCodeWorkspaceSet
name: fleet
spec:
  generators:
    - matrix:
        - list: [ ${teams.map((t) => `{team: ${t}}`).join(', ')} ]
        - list: [ ${envs.map((e) => `{env: ${e}}`).join(', ')} ]
  template:
    name: "vpc-{{ team }}-{{ env }}"
${fields('{{ team }}', '{{ env }}', '    ')}`;
  const written = (team, env) => `kind: NoCodeWorkspace
name: vpc-${team}-${env}
spec:
${fields(team, env, '  ')}`;
  return { set, written: [MODULE, ...teams.flatMap((t) => envs.map((e) => written(t, e)))].join('---\n') };
}
const { set: SET, written: WRITTEN } = fleet(names('t', TEAMS), names('e', ENVS));

const setDir = await tempDir({ 'settings.yaml': SETTINGS, 'fleet.yaml': SET });
const writtenDir = await tempDir({ 'settings.yaml': SETTINGS, 'fleet.yaml': WRITTEN });
const sandbox = await startSandbox();
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function validateMs(dir) {
  const t0 = performance.now();
  const r = await loadManifests(['.'], { cwd: dir });
  const ms = performance.now() - t0;
  const workspaces = r.desired.objects.filter((o) => o.kind === 'NoCodeWorkspace').length;
  if (r.diagnostics.length > 0 || workspaces !== N) throw new Error(`validate: ${workspaces} workspaces, ${r.diagnostics.map((d) => d.summary).join('; ')}`);
  return ms;
}

/** Applies the fleet from `dir` into a sandbox of its own; the time and the requests it took. */
async function applyOnce(dir, n) {
  const own = await startSandbox();
  try {
    const host = libraryHost({ cwd: dir, env: { ...own.env, DB_PASSWORD: 'bench-secret' } });
    const t0 = performance.now();
    const r = await apply(host, { paths: ['.'], lockTimeoutMs: 0, options: { runTimeoutMs: 600_000, pollIntervalMs: 200, concurrency: 8 } });
    const ms = performance.now() - t0;
    const counts = r.status === 'applied' ? r.result.counts : undefined;
    if (!counts || counts.failed > 0 || counts.succeeded < n) throw new Error(`apply: ${r.status} ${JSON.stringify(counts)}; ${host.found.map((d) => d.summary).join('; ')}`);
    return { ms, requests: own.log.entries().length };
  } finally {
    await own.stop();
  }
}

/** The apply comparison, on a fleet small enough to create in a minute or two each way. */
async function applyBoth() {
  const teams = Math.min(10, APPLY_N);
  const { set, written } = fleet(names('t', teams), names('e', Math.ceil(APPLY_N / teams)));
  const n = teams * Math.ceil(APPLY_N / teams);
  const a = await tempDir({ 'settings.yaml': SETTINGS, 'fleet.yaml': set });
  const b = await tempDir({ 'settings.yaml': SETTINGS, 'fleet.yaml': written });
  try {
    const s = await applyOnce(a.dir, n);
    const w = await applyOnce(b.dir, n);
    console.log(`apply: ${n} workspaces created from an empty state, each way into its own sandbox (one run each)`);
    table([{ step: 'apply', 'set ms': s.ms.toFixed(0), 'written ms': w.ms.toFixed(0), 'set requests': s.requests, 'written requests': w.requests, 'ratio set ÷ written': (s.ms / w.ms).toFixed(2) }]);
  } finally {
    await a.cleanup();
    await b.cleanup();
  }
}

async function planMs(dir) {
  const host = libraryHost({ cwd: dir, env: { ...sandbox.env, DB_PASSWORD: 'bench-secret' } });
  const t0 = performance.now();
  const r = await plan(host, { paths: ['.'] });
  const ms = performance.now() - t0;
  const creates = r?.run.plan.changes.filter((c) => c.action === 'create' && c.kind === 'NoCodeWorkspace').length;
  if (creates !== N) throw new Error(`plan: ${creates} creates; ${host.found.map((d) => d.summary).join('; ')}`);
  return ms;
}

try {
  const times = { set: { validate: [], plan: [] }, written: { validate: [], plan: [] } };
  for (let i = 0; i < RUNS; i++) {
    for (const [label, dir] of i % 2 === 0 ? [['set', setDir.dir], ['written', writtenDir.dir]] : [['written', writtenDir.dir], ['set', setDir.dir]]) {
      globalThis.gc?.();
      times[label].validate.push(await validateMs(dir));
      globalThis.gc?.();
      times[label].plan.push(await planMs(dir));
    }
  }
  const rows = ['validate', 'plan'].map((step) => {
    const s = median(times.set[step]);
    const w = median(times.written[step]);
    return { step, 'set ms (median)': s.toFixed(0), 'written ms (median)': w.toFixed(0), 'ratio set ÷ written': (s / w).toFixed(2) };
  });
  console.log(`workspace-set: ${N} workspaces from one ${SET.split('\n').length - 1}-line set document vs ${N} written documents (${WRITTEN.split('\n').length - 1} lines); ${RUNS} runs each, alternating; plan against the sandbox with an empty state; target ratio ≤ 1.0`);
  table(rows);
  if (APPLY_N > 0) await applyBoth();
} finally {
  await sandbox.stop();
  await setDir.cleanup();
  await writtenDir.cleanup();
}
