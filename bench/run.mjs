// `npm run bench`: runs every benchmark and prints the whole wall time at the end. Needs `npm run build` first
// (the npm script does it). Benchmarks are measurements, not tests: they never fail CI on a slow machine,
// but each prints its target beside the figure so a reader can compare.
//
// Two lanes. The paced lane holds the benchmarks that spend their time waiting on HCP Terraform's 30 req/s
// (fleet-plan's readers, upgrade): they use little CPU (fleet-plan prints how much), each has its own sandbox
// and so its own rate limit, and they run one after another in the background; their output is printed in
// one piece when each ends. fleet-plan goes first and alone, while it seeds and while converge's own plan is
// measured; when it says its readers have started, the other lane (CPU-bound benchmarks) starts beside it.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const only = process.argv.slice(2);
const paced = ['fleet-plan.mjs', 'upgrade.mjs'];
const benches = ['startup.mjs', 'validate.mjs', 'state-writes.mjs', 'nomad-plan.mjs', 'fleet-memory.mjs'];
const wanted = (b) => only.length === 0 || only.some((o) => b.startsWith(o));
const t0 = performance.now();
const minutes = (ms) => `${(ms / 1000).toFixed(0)} s (${(ms / 60_000).toFixed(1)} min)`;

/** Runs one paced benchmark; `readers` resolves true when fleet-plan's readers start (false if it ends first). */
function runPaced(b) {
  const child = spawn(process.execPath, ['--expose-gc', here + b], { stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  let started;
  const readers = new Promise((r) => (started = r));
  child.on('message', (m) => m === 'readers-started' && started(true));
  const s = performance.now();
  const done = new Promise((resolve) =>
    child.on('close', (code) => {
      started(false);
      process.stdout.write(`\n── ${b} (paced lane; ran ${minutes(performance.now() - s)}, ended ${minutes(performance.now() - t0)} after the start)\n${out}`);
      if (code !== 0) console.log(`${b}: exited ${code}`);
      resolve();
    }),
  );
  return { readers, done };
}

/** The paced lane, one after another; resolves `cpuLaneMayStart` once fleet-plan's readers run (or the lane is empty). */
function pacedLane() {
  let go;
  const cpuLaneMayStart = new Promise((r) => (go = r));
  const done = (async () => {
    for (const b of paced) {
      if (!wanted(b)) continue;
      if (!existsSync(here + b)) {
        console.log(`${b}: missing`);
        continue;
      }
      const run = runPaced(b);
      if (b === 'fleet-plan.mjs') {
        const running = await run.readers;
        const when = minutes(performance.now() - t0);
        console.log(running ? `(fleet-plan.mjs: seeded and converge's plan measured after ${when}; its paced readers go on beside the CPU-bound benchmarks)` : `(fleet-plan.mjs: ended after ${when}, before its readers)`);
        go();
      }
      await run.done;
    }
    go();
  })();
  return { cpuLaneMayStart, done };
}

const lane = pacedLane();
await lane.cpuLaneMayStart;
for (const b of benches) {
  if (!wanted(b)) continue;
  if (!existsSync(here + b)) {
    console.log(`${b}: missing`);
    continue;
  }
  console.log(`\n── ${b}`);
  const s = performance.now();
  // Not spawnSync: the paced lane's events (its output, its end, the next paced benchmark) must go on meanwhile.
  const code = await new Promise((resolve) => spawn(process.execPath, ['--expose-gc', here + b], { stdio: 'inherit' }).on('close', resolve));
  if (code !== 0) console.log(`${b}: exited ${code}`);
  console.log(`(${b}: ${minutes(performance.now() - s)})`);
}
console.log(`\n(CPU-bound benchmarks done after ${minutes(performance.now() - t0)}; waiting for the paced lane)`);
await lane.done;
console.log(`\nnpm run bench: whole wall time ${minutes(performance.now() - t0)} (goal < 15 min)`);
