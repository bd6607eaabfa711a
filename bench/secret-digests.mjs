// Cost of the secret digests kept in plans and state (scrypt instead of one salted SHA-256).
// 1. Library: one digest, 2 000 distinct values, the same 2 000 again (cached per process), and the legacy
//    SHA-256 for comparison (what an offline guess used to cost).
// 2. Built CLI: `plan` of 2 000 OIDC auth methods (no state, so all are creates; one Nomad list request),
//    each client secret its own file, once with 2 000 distinct values and once with one value in every file
//    (derived once): the difference is what the digests cost a plan.
import { DigestBook, legacyDigest, secretDigest } from '../dist/secrets/digest.js';
import { startSandbox } from '../dist/sandbox/index.js';
import { runCli, table, tempDir } from './lib.mjs';

const N = 2000;
const SALT = '9f1c2a7b3e4d5c6f8a9b0c1d2e3f4a5b';
const ms = (f) => {
  const t = process.hrtime.bigint();
  f();
  return Number(process.hrtime.bigint() - t) / 1e6;
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

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
