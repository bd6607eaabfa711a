// Bytes written to the local state per object saved, for N = 500, 2 000 and 10 000 objects.
//
// 1. The state layer alone: one StateStore over the local backend saves N workspace records one by one (as
//    an apply does, one save per object, each durable before the next), in a child process of its own so its
//    /proc/self/io `wchar` (bytes passed to write(2)) counts only the state's writes.
// 2. The built CLI creating 500 no-code workspaces (3 variables each) against the sandbox (limit lifted, no
//    latency: the apply is measured for its writes, not its pacing); the converge process reports its own
//    `wchar` at exit (bench/maxrss-hook.mjs).
// 3. The Nomad Variables backend: one StateStore over it saves N records against the Nomad
//    simulator on loopback (in the child, no latency); the child counts the requests the backend sends and their
//    JSON body bytes. BENCH_OLD_DIST=<dir> (a `dist` built from an older commit) measures that build too, for N up
//    to BENCH_OLD_MAX (default 2 000: the old backend gzips the whole state on every save, so 10 000 takes hours).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { table } from './lib.mjs';

const SIZES = (process.env.BENCH_STATE_SIZES ?? '500,2000,10000').split(',').map(Number);
const here = fileURLToPath(import.meta.url);
/** Bytes this process has passed to write(2) so far (Linux). */
const wchar = () => Number(/wchar: (\d+)/.exec(readFileSync('/proc/self/io', 'utf8'))?.[1] ?? NaN);

/** A record the size of a converged fleet workspace's (module, description, three variables, digests). */
function record(i) {
  const name = `ws-${String(i).padStart(5, '0')}`;
  return {
    kind: 'NoCodeWorkspace',
    name,
    id: `ws-${i.toString(16).padStart(16, 'a')}`,
    applied: {
      module: `svc${String(i % 50).padStart(2, '0')}`,
      moduleVersion: '1.1.0',
      description: `bench workspace ${i}`,
      project: null,
      executionMode: 'remote',
      variables: [
        { key: 'region', category: 'terraform', hcl: false, sensitive: false, value: i % 2 ? 'eu-west-1' : 'us-east-1' },
        { key: 'size', category: 'terraform', hcl: false, sensitive: false, value: i % 3 ? 'small' : 'large' },
        { key: 'db_password', category: 'terraform', hcl: false, sensitive: true },
      ],
    },
    secretDigests: { 'variables.terraform.db_password': 'sha256:' + 'c'.repeat(64) },
    extra: { moduleId: 'nocode-abcdefghijkl', varIds: { region: 'var-aaaaaaaaaaaaaaaa', size: 'var-bbbbbbbbbbbbbbbb', db_password: 'var-cccccccccccccccc' } },
    protect: false,
    updatedAt: new Date(0).toISOString(),
  };
}

if (process.argv[2] === '--child') {
  const n = Number(process.argv[3]);
  const dir = process.argv[4];
  const { openStateStore } = await import('../dist/state/state-store.js');
  const { createLocalBackend } = await import('../dist/state/local-backend.js');
  const path = join(dir, 'state.json');
  const store = await openStateStore(createLocalBackend(path), { lock: true, operation: 'apply', lockTimeoutMs: 0 });
  const before = wchar();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await store.put(record(i));
  await store.close();
  const ms = performance.now() - t0;
  const written = wchar() - before;
  console.log(JSON.stringify({ n, written, ms, fileBytes: (await stat(path)).size }));
  process.exit(0);
}

if (process.argv[2] === '--nomad-child') {
  const [, , , nText, dist] = process.argv;
  const n = Number(nText);
  const { openStateStore } = await import(join(dist, 'state/state-store.js'));
  const { createNomadVariablesBackend } = await import(join(dist, 'state/nomad/index.js'));
  // The simulator and HTTP layer of this build serve both: only the backend (and its store) differ.
  const { startNomadSimulator } = await import('../dist/sandbox/nomad/index.js');
  const { RequestLog } = await import('../dist/sandbox/common/request-log.js');
  const { createHttpClient } = await import('../dist/http/client.js');
  const sim = await startNomadSimulator({ host: '127.0.0.1', port: 0, log: new RequestLog() });
  const inner = createHttpClient({ baseUrl: sim.url });
  const sent = { requests: 0, bytes: 0 };
  const http = {
    baseUrl: inner.baseUrl,
    request: (req) => {
      sent.requests += 1;
      if (req.body !== undefined) sent.bytes += Buffer.byteLength(JSON.stringify(req.body));
      return inner.request(req);
    },
    stats: () => inner.stats(),
    close: () => Promise.resolve(),
  };
  const backend = createNomadVariablesBackend({ address: sim.url, token: sim.managementToken, path: 'converge/state', http });
  const store = await openStateStore(backend, { lock: true, operation: 'apply', lockTimeoutMs: 0 });
  const before = { ...sent };
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await store.put(record(i));
  await store.close();
  const ms = performance.now() - t0;
  const stateBytes = Buffer.byteLength(JSON.stringify(store.doc));
  console.log(JSON.stringify({ n, requests: sent.requests - before.requests, bytes: sent.bytes - before.bytes, ms, stateBytes }));
  await inner.close();
  await sim.stop();
  process.exit(0);
}

const rows = [];
for (const n of SIZES) {
  const dir = await mkdtemp(join(tmpdir(), 'converge-bench-state-'));
  try {
    const r = spawnSync(process.execPath, [here, '--child', String(n), dir], { encoding: 'utf8' });
    if (r.status !== 0) {
      console.log(`state-writes child (N = ${n}) exited ${r.status}: ${r.stderr.slice(0, 2000)}`);
      continue;
    }
    const m = JSON.parse(r.stdout.trim().split('\n').pop());
    const recordBytes = m.fileBytes / n;
    rows.push({
      what: 'state layer: N saves, then close',
      N: n,
      'bytes written': m.written,
      'bytes / object': Math.round(m.written / n),
      'state file bytes / object': Math.round(recordBytes),
      'written ÷ final file': (m.written / m.fileBytes).toFixed(2),
      'wall s': (m.ms / 1000).toFixed(1),
      'ms / save': (m.ms / n).toFixed(2),
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// The Nomad Variables backend, this build and (optionally) an older one.
const nomadRows = [];
const builds = [['this build', fileURLToPath(new URL('../dist/', import.meta.url)), Infinity]];
if (process.env.BENCH_OLD_DIST) builds.push(['old build', process.env.BENCH_OLD_DIST, Number(process.env.BENCH_OLD_MAX ?? 2000)]);
for (const [label, dist, max] of builds) {
  for (const n of SIZES.filter((s) => s <= max)) {
    const r = spawnSync(process.execPath, [here, '--nomad-child', String(n), dist], { encoding: 'utf8', maxBuffer: 1 << 26 });
    if (r.status !== 0) {
      console.log(`state-writes Nomad child (${label}, N = ${n}) exited ${r.status}: ${r.stderr.slice(0, 2000)}`);
      continue;
    }
    const m = JSON.parse(r.stdout.trim().split('\n').pop());
    nomadRows.push({
      build: label,
      N: n,
      'Nomad requests': m.requests,
      'requests / object': (m.requests / n).toFixed(2),
      'bytes sent': m.bytes,
      'bytes / object': Math.round(m.bytes / n),
      'state JSON bytes / object': Math.round(m.stateBytes / n),
      'wall s': (m.ms / 1000).toFixed(1),
    });
  }
}

// The apply through the CLI.
const { startSandbox } = await import('../dist/sandbox/index.js');
const { fleetManifests, fleetSeed, SECRET_ENV } = await import('./fleet.mjs');
const { runCli, tempDir } = await import('./lib.mjs');
const { writeFile } = await import('node:fs/promises');
const hook = fileURLToPath(new URL('./maxrss-hook.mjs', import.meta.url));
for (const n of [500]) {
  const shape = { modules: 10, workspaces: n };
  const ws = await tempDir(fleetManifests(shape));
  const seedFile = join(ws.dir, 'tfe-seed.json');
  await writeFile(seedFile, JSON.stringify(fleetSeed(shape.modules)));
  const sandbox = await startSandbox({ seedFile, stepDelayMs: 1 });
  try {
    sandbox.tfe.control.setRateLimit(10_000);
    const ioFile = join(ws.dir, 'wchar.txt');
    const r = await runCli(['apply', '--auto-approve', '--quiet', '--parallelism', '16', '--poll-interval', '20ms'], {
      cwd: ws.dir,
      env: { ...sandbox.env, ...SECRET_ENV, BENCH_WCHAR_FILE: ioFile },
      nodeArgs: ['--import', hook],
    });
    if (r.code !== 0) throw new Error(`apply exited ${r.code}: ${r.stderr.slice(0, 2000)}`);
    const written = Number(await readFile(ioFile, 'utf8'));
    const fileBytes = (await stat(join(ws.dir, 'state.json'))).size;
    const objects = shape.modules + n;
    rows.push({
      what: `converge apply creating ${shape.modules} modules + ${n} workspaces (everything the process wrote, HTTP requests included)`,
      N: objects,
      'bytes written': written,
      'bytes / object': Math.round(written / objects),
      'state file bytes / object': Math.round(fileBytes / objects),
      'written ÷ final file': (written / fileBytes).toFixed(2),
      'wall s': (r.ms / 1000).toFixed(1),
      'ms / save': '-',
    });
  } finally {
    await sandbox.stop();
    await ws.cleanup();
  }
}
console.log('state-writes: bytes written to the local state per object saved (goal: O(1), flat in N)');
table(rows);
console.log('state-writes: Nomad Variables backend, requests and JSON body bytes sent per object saved (goal: O(1), flat in N)');
table(nomadRows);
