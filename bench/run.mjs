// `npm run bench`: runs every benchmark and prints the whole wall time at the end. Needs `npm run build` first
// (the npm script does it). Benchmarks are measurements, not tests: they never fail CI on a slow machine,
// but each prints its target beside the figure so a reader can compare.
//
// Three lanes. The paced benchmarks spend their time waiting on HCP Terraform's 30 req/s (fleet-plan's
// readers, upgrade): they use little CPU (each line says how much), and each process starts its own sandbox,
// so each has its own rate limit, as two users of HCP Terraform have (docs/reference/hcp-terraform-api.md §8: the limit is per
// user). fleet-plan goes first and alone, while it seeds and while converge's own plan is measured (its
// wall ÷ floor is the tightest goal). When it says that plan is measured, the CPU-bound benchmarks start one
// after another in the foreground, beside its readers (2 % of one core). upgrade.mjs starts in the background
// once the benchmarks whose wall times a busy neighbour moves most (start-up, validate) have run: its seeding
// (an apply of 2 000 workspaces at 10 000 req/s) takes a whole core for a minute, and start-up's median took
// 433–633 ms beside it instead of about 100 ms. The background benchmarks' output is printed in one piece
// when each ends; every benchmark's line says what ran beside it, its CPU and the load average at its start
// and end, since other sessions share the machine.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const only = process.argv.slice(2);
const first = 'fleet-plan.mjs';
const besideReaders = ['upgrade.mjs'];
const benches = ['startup.mjs', 'validate.mjs', 'state-writes.mjs', 'nomad-plan.mjs', 'fleet-memory.mjs', 'hostile-input.mjs', 'login-explain.mjs', 'workspace-set.mjs'];
/** Run before upgrade.mjs starts: their wall times are the figures a CPU-heavy neighbour moves most. */
const beforeUpgrade = ['startup.mjs', 'validate.mjs'];
const wanted = (b) => (only.length === 0 || only.some((o) => b.startsWith(o))) && (existsSync(here + b) || (console.log(`${b}: missing`), false));
const t0 = performance.now();
const minutes = (ms) => `${(ms / 1000).toFixed(0)} s (${(ms / 60_000).toFixed(1)} min)`;
const load = () => loadavg()[0].toFixed(1);
/** What runs now, so that each figure says what it was measured beside. */
const running = new Set();

// The CPU time of each benchmark process and everything it started: Linux adds a child's user + system time
// (with that of the children it waited for) to the parent's cutime + cstime when the child is reaped, so the
// growth between two exits is the process that just ended (exits in the same instant would be summed).
const TICKS_PER_SECOND = 100; // USER_HZ, 100 on Linux
function reapedChildrenCpuSeconds() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return (Number(fields[13]) + Number(fields[14])) / TICKS_PER_SECOND;
  } catch {
    return NaN; // not Linux: the share is printed as NaN
  }
}
let reapedCpu = reapedChildrenCpuSeconds();
function cpuOfTheChildThatEnded() {
  const now = reapedChildrenCpuSeconds();
  const own = now - reapedCpu;
  reapedCpu = now;
  return own;
}

/** Starts one benchmark; `output: 'buffer'` keeps its output for one piece at its end (background lanes). */
function start(b, { output, note }) {
  const buffered = output === 'buffer';
  const child = spawn(process.execPath, ['--expose-gc', here + b], { stdio: ['ignore', buffered ? 'pipe' : 'inherit', buffered ? 'pipe' : 'inherit', 'ipc'] });
  let out = '';
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (out += d));
  const beside = [...running].join(', ') || 'nothing';
  const s = performance.now();
  const loadAtStart = load();
  let measuredAlone;
  const alone = new Promise((r) => (measuredAlone = r));
  child.on('message', (m) => m === 'measured-alone' && measuredAlone(true));
  running.add(note ?? b);
  const done = new Promise((resolve) => {
    let cpu = NaN;
    child.on('exit', () => (cpu = cpuOfTheChildThatEnded()));
    child.on('close', (code) => {
      measuredAlone(false);
      running.delete(note ?? b);
      const ms = performance.now() - s;
      const how =
        `ran ${minutes(ms)}, ended ${minutes(performance.now() - t0)} after the start; load average ${loadAtStart} → ${load()}; ` +
        `${cpu.toFixed(1)} s CPU, ${((cpu * 1000 * 100) / ms).toFixed(0)} % of one core; started beside: ${beside}`;
      if (buffered) process.stdout.write(`\n── ${b} (background lane; ${how})\n${out}`);
      else console.log(`(${b}: ${how}; still running beside it at its end: ${[...running].join(', ') || 'nothing'})`);
      if (code !== 0) console.log(`${b}: exited ${code}`);
      resolve();
    });
  });
  return { alone, done };
}

const lanes = [];
if (wanted(first)) {
  const plan = start(first, { output: 'buffer', note: "fleet-plan's readers" });
  const alone = await plan.alone;
  const when = minutes(performance.now() - t0);
  console.log(
    alone
      ? `(${first}: seeded and converge's plan measured alone after ${when}; its paced readers go on beside the rest)`
      : `(${first}: ended after ${when}, before its readers)`,
  );
  lanes.push(plan.done);
}
let upgradeLane = false;
function startUpgradeLane() {
  if (upgradeLane) return;
  upgradeLane = true;
  for (const b of besideReaders) if (wanted(b)) lanes.push(start(b, { output: 'buffer' }).done);
}
for (const b of benches) {
  if (!beforeUpgrade.includes(b)) startUpgradeLane();
  if (!wanted(b)) continue;
  console.log(`\n── ${b}`);
  // Not spawnSync: the background lanes' events (their output, their end) must go on meanwhile.
  await start(b, { output: 'inherit' }).done;
}
startUpgradeLane();
console.log(`\n(CPU-bound benchmarks done after ${minutes(performance.now() - t0)}; waiting for the background lanes)`);
await Promise.all(lanes);
console.log(`\nnpm run bench: whole wall time ${minutes(performance.now() - t0)} (goal < 15 min), load average now ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
