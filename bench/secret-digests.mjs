// Cost of the secret digests kept in plans and state (scrypt instead of one salted SHA-256), and of the
// redactor every printed byte passes (3.).
// 1. Library: one digest, 2 000 distinct values, the same 2 000 again (cached per process), and the legacy
//    SHA-256 for comparison (what an offline guess used to cost).
// 2. Built CLI: `plan` of 2 000 OIDC auth methods (no state, so all are creates; one Nomad list request),
//    each client secret its own file, once with 2 000 distinct values and once with one value in every file
//    (derived once): the difference is what the digests cost a plan.
// 3. The redactor on a large plan: the built CLI plans the 10 000-workspace fleet (bench/fleet.mjs, no state:
//    50 module and 10 000 workspace creates, text and --json); its output is then passed through the redactor
//    in this process with no secret registered (what printing costs without it), with what that run registers
//    (the sensitive value and both tokens), and with 10 000 distinct secrets (one per workspace). Each figure
//    is set beside the plan's own wall time.
import { writeFile } from 'node:fs/promises';
import { DigestBook, legacyDigest, secretDigest } from '../dist/secrets/digest.js';
import { Redactor } from '../dist/secrets/redactor.js';
import { startSandbox } from '../dist/sandbox/index.js';
import { fleetManifests, fleetSeed, SECRET_ENV } from './fleet.mjs';
import { runCli, table, tempDir } from './lib.mjs';

const N = 2000;
const SALT = '9f1c2a7b3e4d5c6f8a9b0c1d2e3f4a5b';
const ms = (f) => {
  const t = process.hrtime.bigint();
  f();
  return Number(process.hrtime.bigint() - t) / 1e6;
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// `node bench/secret-digests.mjs --redactor`: only part 3.
if (!process.argv.includes('--redactor')) {
  const one = median(Array.from({ length: 40 }, (_, i) => ms(() => secretDigest(SALT, `value-${i}`))));
  const sha = median(Array.from({ length: 40 }, (_, i) => ms(() => legacyDigest(SALT, `value-${i}`))));
  const book = new DigestBook();
  const distinct = ms(() => { for (let i = 0; i < N; i++) book.digest(SALT, `secret-${i}`); });
  const cached = ms(() => { for (let i = 0; i < N; i++) book.digest(SALT, `secret-${i}`); });
  console.log(`secret-digests: library, ${N} values`);
  table([
    { what: 'one scrypt digest (median of 40)', ms: one.toFixed(2) },
    { what: 'one legacy SHA-256 digest (median of 40)', ms: sha.toFixed(4) },
    { what: `${N} distinct values`, ms: distinct.toFixed(0) },
    { what: `the same ${N} again (cached)`, ms: cached.toFixed(1) },
  ]);

  function methodDoc(i) {
    return `kind: NomadAuthMethod
  name: method-${i}
  spec:
    type: OIDC
    tokenLocality: local
    maxTokenTtl: 1h
    config:
      oidcDiscoveryUrl: https://idp-${i}.example
      oidcClientId: client-${i}
      oidcClientSecret: { fromFile: secrets/${i}.txt }
      boundAudiences: [client-${i}]
      allowedRedirectUris: [https://nomad.example.com/ui/settings/tokens]
  `;
  }

  const rows = [];
  const sandbox = await startSandbox();
  try {
    for (const [label, secret] of [['one value in every file', () => 'shared-secret-value'], ['distinct values', (i) => `secret-value-${i}`]]) {
      const files = { 'settings.yaml': 'kind: Settings\nname: s\nspec:\n  state: { backend: local, path: state.json }\n', 'methods.yaml': Array.from({ length: N }, (_, i) => methodDoc(i)).join('---\n') };
      for (let i = 0; i < N; i++) files[`secrets/${i}.txt`] = secret(i);
      const ws = await tempDir(files);
      try {
        sandbox.log.clear();
        const r = await runCli(['plan', '--quiet'], { cwd: ws.dir, env: sandbox.env });
        rows.push({ plan: `${N} methods, ${label}`, 'exit code': r.code, requests: sandbox.log.size, 'wall ms': r.ms.toFixed(0), 'peak RSS MB': r.peakMb.toFixed(0) });
      } finally {
        await ws.cleanup();
      }
    }
  } finally {
    await sandbox.stop();
  }
  console.log(`\nsecret-digests: built CLI plan, ${N} auth methods with a client secret each`);
  table(rows);
}

// 3. The redactor over the printed 10 000-workspace plan.
const FLEET = { modules: 50, workspaces: Number(process.env.BENCH_WORKSPACES ?? 10_000) };
const fleetDir = await tempDir(fleetManifests(FLEET));
await writeFile(`${fleetDir.dir}/tfe-seed.json`, JSON.stringify(fleetSeed(FLEET.modules)));
const fleetSandbox = await startSandbox({ seedFile: `${fleetDir.dir}/tfe-seed.json`, stepDelayMs: 1 });
const redactRows = [];
try {
  fleetSandbox.tfe.control.setRateLimit(10_000);
  const env = { ...fleetSandbox.env, ...SECRET_ENV };
  const redactors = {
    'no secret registered': () => new Redactor(),
    'the run\'s secrets (sensitive value + 2 tokens)': () => {
      const r = new Redactor();
      for (const v of [SECRET_ENV.FLEET_DB_PASSWORD, env.NOMAD_TOKEN, env.TFE_TOKEN]) r.add(v);
      return r;
    },
    [`${FLEET.workspaces} distinct secrets + 2 tokens`]: () => {
      const r = new Redactor();
      for (const v of [env.NOMAD_TOKEN, env.TFE_TOKEN]) r.add(v);
      for (let i = 0; i < FLEET.workspaces; i++) r.add(`db-pw-${i}-${((i * 2654435761) >>> 0).toString(36)}`);
      return r;
    },
  };
  for (const format of [[], ['--json']]) {
    const r = await runCli(['plan', ...format], { cwd: fleetDir.dir, env });
    if (r.code !== 0) console.log(`plan ${format.join(' ')} exited ${r.code}: ${r.stderr.slice(0, 2000)}`);
    for (const [label, make] of Object.entries(redactors)) {
      const redactor = make();
      const times = Array.from({ length: 5 }, () => ms(() => redactor.redact(r.stdout)));
      const redactMs = median(times);
      redactRows.push({
        plan: `plan ${format.join(' ') || '(text)'}, ${(r.stdout.length / 1e6).toFixed(1)} MB printed`,
        redactor: label,
        'plan wall ms': r.ms.toFixed(0),
        'redact ms (median of 5)': redactMs.toFixed(1),
        'share of the plan': `${((redactMs / r.ms) * 100).toFixed(1)} %`,
      });
    }
  }
} finally {
  await fleetSandbox.stop();
  await fleetDir.cleanup();
}
console.log(`\nsecret-digests: the redactor over the printed plan of ${FLEET.modules} modules + ${FLEET.workspaces} workspaces (all creates; goal: under 10 % of the plan)`);
table(redactRows);
