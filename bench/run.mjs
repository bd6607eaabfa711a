// `npm run bench`: runs every benchmark and prints the whole wall time at the end. Needs `npm run build` first
// (the npm script does it). Benchmarks are measurements, not tests: they never fail CI on a slow machine,
// but each prints its target beside the figure so a reader can compare.
//
// fleet-plan spends most of its time in two readers paced at HCP Terraform's 30 req/s, which use little CPU
// (it prints how much). So it runs first, alone while it seeds and while converge's plan is measured, and
// when it says its readers have started the other benchmarks run one after another beside them. Each of
// those has its own sandbox, so its own rate limit. Its output is printed when it ends, in one piece.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const only = process.argv.slice(2);
const background = 'fleet-plan.mjs';
const benches = ['startup.mjs', 'validate.mjs', 'state-writes.mjs', 'nomad-plan.mjs', 'fleet-memory.mjs', 'upgrade.mjs'];
const wanted = (b) => only.length === 0 || only.some((o) => b.startsWith(o));
const t0 = performance.now();
const minutes = (ms) => `${(ms / 1000).toFixed(0)} s (${(ms / 60_000).toFixed(1)} min)`;

/** Starts fleet-plan; resolves `readers` when its paced readers start (or it ends), `done` with its output when it ends. */
function startBackground(b) {
  const child = spawn(process.execPath, ['--expose-gc', here + b], { stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  let started;
  const readers = new Promise((r) => (started = r));
  child.on('message', (m) => m === 'readers-started' && started(true));
  const done = new Promise((resolve) =>
    child.on('close', (code) => {
      started(false);
      resolve({ out, code, ms: performance.now() - t0 });
    }),
  );
  return { readers, done };
}

let bg;
if (wanted(background)) {
  bg = startBackground(background);
  const running = await bg.readers;
  const when = minutes(performance.now() - t0);
  console.log(running ? `(${background}: seeded and converge's plan measured after ${when}; its paced readers go on beside the next benchmarks)` : `(${background}: ended after ${when}, before its readers; its output is below)`);
}
for (const b of benches) {
  if (!wanted(b)) continue;
  if (!existsSync(here + b)) {
    console.log(`${b}: missing`);
    continue;
  }
  console.log(`\n── ${b}`);
  const s = performance.now();
  const r = spawnSync(process.execPath, ['--expose-gc', here + b], { stdio: 'inherit' });
  if (r.status !== 0) console.log(`${b}: exited ${r.status}`);
  console.log(`(${b}: ${minutes(performance.now() - s)})`);
}
if (bg) {
  const { out, code, ms } = await bg.done;
  console.log(`\n── ${background} (ran from the start; ended after ${minutes(ms)})`);
  process.stdout.write(out);
  if (code !== 0) console.log(`${background}: exited ${code}`);
}
console.log(`\nnpm run bench: whole wall time ${minutes(performance.now() - t0)} (goal < 15 min)`);
