// Plan over 500 auth methods against the Nomad simulator with 20 ms latency: requests and wall time.
// A converged fleet costs one list request (Hash equals what converge recorded after its last apply).
import { startSandbox } from '../dist/sandbox/index.js';
import { authMethodDoc, runCli, table, tempDir } from './lib.mjs';

const N = 500;
const docs = [];
for (let i = 0; i < N; i++) {
  docs.push(authMethodDoc(i));
}
const ws = await tempDir({ 'settings.yaml': 'kind: Settings\nname: s\nspec:\n  state: { backend: local, path: state.json }\n', 'methods.yaml': docs.join('---\n') });
const sandbox = await startSandbox();
try {
  const env = sandbox.env;
  const first = await runCli(['apply', '--auto-approve', '--quiet'], { cwd: ws.dir, env });
  if (first.code !== 0) throw new Error(`apply failed: ${first.stderr.slice(0, 2000)}`);
  sandbox.nomad.faults.set({ latencyMs: 20 });
  const rows = [];
  for (const [label, extra] of [['converged, with state', {}], ['state lost (adopt by name)', { moveState: true }]]) {
    if (extra.moveState) {
      const { rename } = await import('node:fs/promises');
      await rename(`${ws.dir}/state.json`, `${ws.dir}/state.old.json`);
    }
    sandbox.log.clear();
    const r = await runCli(['plan', '--detailed-exitcode'], { cwd: ws.dir, env });
    rows.push({ plan: label, 'exit code': r.code, requests: sandbox.log.size, 'wall ms': r.ms.toFixed(0), 'peak RSS MB': r.peakMb.toFixed(0) });
  }
  console.log(`nomad-plan: ${N} auth methods, 20 ms latency per request`);
  table(rows);
} finally {
  await sandbox.stop();
  await ws.cleanup();
}
