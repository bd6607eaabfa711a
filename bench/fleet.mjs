// The fleet the TFE and fleet benchmarks plan over: N no-code modules (one private registry module each, with
// variable options), W workspaces spread over them (two plain variables and one sensitive one each), and
// optionally M Nomad auth methods. `seedFleet` puts the no-code modules and workspaces straight into the
// simulator through its control API (`control.addFleet`, milliseconds), then one apply through the CLI with
// no latency and the limit raised to 10 000 req/s (advertised in X-RateLimit-Limit, which converge follows)
// adopts them by name and creates the auth methods, so the state records are exactly what converge makes;
// `{ via: 'apply' }` builds everything with that apply instead (minutes: what the earlier figures used).
// Then it sets the real 30 req/s limit and the latency the measurement runs with, and checks with a plan
// that nothing is left to change (`{ check: false }` skips that plan for a benchmark whose measured plan is the
// same plan and prints its exit code: fleet-memory's 10 000-workspace check took two minutes under load).
import { startSandbox } from '../dist/sandbox/index.js';
import { DEFAULT_TFE_SEED } from '../dist/sandbox/tfe/index.js';
import { authMethodDoc, runCli, tempDir } from './lib.mjs';

export const SECRET_ENV = { FLEET_DB_PASSWORD: 'bench-secret-value' };

export function fleetSeed(modules) {
  const registryModules = [];
  for (let m = 0; m < modules; m++) {
    registryModules.push({
      name: `svc${String(m).padStart(2, '0')}`,
      provider: 'aws',
      versions: ['1.0.0', '1.1.0'],
      inputs: [
        { name: 'region', type: 'string', required: true },
        { name: 'size', type: 'string', required: false },
        { name: 'db_password', type: 'string', required: true, sensitive: true },
      ],
    });
  }
  return { ...DEFAULT_TFE_SEED, registryModules };
}

export function fleetManifests({ modules, workspaces, authMethods = 0 }) {
  const tfe = [];
  for (let m = 0; m < modules; m++) {
    const name = `svc${String(m).padStart(2, '0')}`;
    tfe.push(`kind: NoCodeModule
name: ${name}
spec:
  registryModule: acme/${name}/aws
  versionPin: 1.1.0
  enabled: true
  variableOptions:
    - { variableName: region, variableType: string, options: [eu-west-1, us-east-1] }
    - { variableName: size, variableType: string, options: [small, large] }
`);
  }
  for (let w = 0; w < workspaces; w++) {
    const m = w % modules;
    tfe.push(`kind: NoCodeWorkspace
name: ws-${String(w).padStart(4, '0')}
spec:
  module: svc${String(m).padStart(2, '0')}
  description: bench workspace ${w}
  variables:
    - { key: region, value: ${w % 2 ? 'eu-west-1' : 'us-east-1'}, category: terraform }
    - { key: size, value: ${w % 3 ? 'small' : 'large'}, category: terraform }
    - { key: db_password, value: { fromEnv: FLEET_DB_PASSWORD }, category: terraform, sensitive: true }
`);
  }
  const nomad = [];
  for (let i = 0; i < authMethods; i++) {
    nomad.push(authMethodDoc(i));
  }
  const files = {
    'settings.yaml': 'kind: Settings\nname: s\nspec:\n  tfe: { organization: acme }\n  state: { backend: local, path: state.json }\n',
    'tfe.yaml': tfe.join('---\n'),
  };
  if (nomad.length > 0) files['nomad.yaml'] = nomad.join('---\n');
  return files;
}

/** The TFE part of the fleet as `control.addFleet` takes it: the same objects `fleetManifests` describes. */
export function fleetForControl({ modules, workspaces }) {
  const noCodeModules = [];
  for (let m = 0; m < modules; m++) {
    noCodeModules.push({
      registryModule: `svc${String(m).padStart(2, '0')}`,
      provider: 'aws',
      versionPin: '1.1.0',
      enabled: true,
      variableOptions: [
        { variableName: 'region', variableType: 'string', options: ['eu-west-1', 'us-east-1'] },
        { variableName: 'size', variableType: 'string', options: ['small', 'large'] },
      ],
    });
  }
  const list = [];
  for (let w = 0; w < workspaces; w++) {
    list.push({
      name: `ws-${String(w).padStart(4, '0')}`,
      module: `svc${String(w % modules).padStart(2, '0')}`,
      description: `bench workspace ${w}`,
      variables: [
        { key: 'region', value: w % 2 ? 'eu-west-1' : 'us-east-1' },
        { key: 'size', value: w % 3 ? 'small' : 'large' },
        { key: 'db_password', value: SECRET_ENV.FLEET_DB_PASSWORD, sensitive: true },
      ],
    });
  }
  return { noCodeModules, workspaces: list };
}

/** A sandbox holding the applied fleet, with `latencyMs` on both services and the TFE rate limit on. */
export async function seedFleet(shape, { latencyMs, via = 'control', limit = 30, check: checkPlan = true }) {
  const { writeFile } = await import('node:fs/promises');
  const ws = await tempDir(fleetManifests(shape));
  const seedFile = `${ws.dir}/tfe-seed.json`;
  await writeFile(seedFile, JSON.stringify(fleetSeed(shape.modules)));
  const sandbox = await startSandbox({ seedFile, stepDelayMs: 1 });
  const env = { ...sandbox.env, ...SECRET_ENV };
  const t0 = performance.now();
  sandbox.tfe.control.setRateLimit(10_000);
  if (via === 'control') sandbox.tfe.control.addFleet(fleetForControl(shape));
  const apply = await runCli(['apply', '--auto-approve', '--adopt-all', '--quiet', '--parallelism', '16', '--poll-interval', '20ms'], { cwd: ws.dir, env });
  if (apply.code !== 0) throw new Error(`seeding apply exited ${apply.code}: ${apply.stderr.slice(0, 2000)}`);
  const check = checkPlan ? await runCli(['plan', '--detailed-exitcode', '--quiet'], { cwd: ws.dir, env }) : { code: 0 };
  if (check.code !== 0) throw new Error(`the seeded fleet is not converged (plan exit ${check.code}): ${check.stdout.slice(0, 2000)}${check.stderr.slice(0, 2000)}`);
  const seedSeconds = (performance.now() - t0) / 1000;
  sandbox.tfe.control.setRateLimit(limit);
  sandbox.tfe.faults.set({ latencyMs });
  sandbox.nomad.faults.set({ latencyMs });
  // Let the one-second window of the seeding requests pass: the measurement starts with a fresh window.
  await new Promise((r) => setTimeout(r, 1100));
  sandbox.log.clear();
  return {
    sandbox,
    dir: ws.dir,
    env,
    seedSeconds,
    seedVia: via,
    async close() {
      await sandbox.stop();
      await ws.cleanup();
    },
  };
}

/** Requests and 429s per service from the sandbox's shared request log. */
export function logFigures(log) {
  const entries = log.entries();
  const of = (service) => entries.filter((e) => e.service === service);
  return {
    tfeRequests: of('tfe').length,
    tfe429: of('tfe').filter((e) => e.status === 429).length,
    nomadRequests: of('nomad').length,
  };
}

/** HCP Terraform requests of the log by endpoint (ids and names as `:id`), most first: `GET /workspaces/:id/vars 2000`. */
export function endpointCounts(log) {
  const counts = new Map();
  for (const e of log.entries()) {
    if (e.service !== 'tfe') continue;
    const path = e.path
      .replace(/^\/api\/v2/, '')
      .replace(/\/organizations\/[^/]+/, '/organizations/:org')
      .replace(/\/(ws|run|nocode|mod|var|prj|apool)-[A-Za-z0-9]+/g, '/:id')
      .replace(/(\/organizations\/:org\/workspaces)\/[^/]+/, '$1/:name');
    const include = /(?:^|&)include=([^&]*)/.exec(e.query)?.[1];
    const key = `${e.method} ${path}${include ? `?include=${decodeURIComponent(include)}` : ''}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1]);
}

/** The rationed run lists among them (HCP Terraform: 30 a minute, docs/reference/hcp-terraform-runs.md). */
export function runListCount(counts) {
  return counts.filter(([k]) => /^GET \/(workspaces\/:id|organizations\/:org)\/runs$/.test(k)).reduce((n, [, c]) => n + c, 0);
}

export function printEndpointCounts(counts) {
  console.log(`requests by endpoint: ${counts.map(([k, c]) => `${k} ${c}`).join('; ')}`);
}
