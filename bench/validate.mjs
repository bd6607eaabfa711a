// Times loadManifests on 1 000 documents in 100 files. Run after `npm run build`:
//   node bench/validate.mjs
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadManifests } from '../dist/manifest/index.js';
import { writeCorpus } from './validate-corpus.mjs';

const FILES = 100;
const DOCS_PER_FILE = 10;
const RUNS = 5;
const TARGET_MS = 500;

async function timedLoads(dir, runs, expected) {
  const times = [];
  let result;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    result = await loadManifests([dir], { cwd: dir });
    times.push(performance.now() - t0);
  }
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0 || result.desired.objects.length !== expected) {
    console.error(`unexpected result: ${result.desired.objects.length} objects, ${errors.length} errors`, errors.slice(0, 3));
    process.exitCode = 1;
  }
  return times.sort((a, b) => a - b);
}

// Child mode: one cold load of a corpus the parent wrote, in a process of its own so its peak RSS is the
// loader's (process.resourceUsage().maxRSS: the kernel's ru_maxrss of this process).
if (process.argv[2] === '--child') {
  const [dir, expected] = [process.argv[3], Number(process.argv[4])];
  const cpu0 = process.cpuUsage();
  const [ms] = await timedLoads(dir, 1, expected);
  // CPU time beside the wall time: on a loaded machine it is the steadier of the two.
  const cpu = process.cpuUsage(cpu0);
  console.log(JSON.stringify({ ms, cpuMs: (cpu.user + cpu.system) / 1000, maxRssMb: process.resourceUsage().maxRSS / 1024 }));
  process.exit();
}

const dir = await mkdtemp(join(tmpdir(), 'converge-bench-validate-'));
try {
  await writeCorpus(dir, FILES, DOCS_PER_FILE);
  const times = await timedLoads(dir, RUNS, FILES * DOCS_PER_FILE);
  const median = times[Math.floor(times.length / 2)];
  console.log(
    `validate: ${FILES * DOCS_PER_FILE} documents in ${FILES} files: median ${median.toFixed(0)} ms, best ${times[0].toFixed(0)} ms (target ≤ ${TARGET_MS} ms)`,
  );
} finally {
  await rm(dir, { recursive: true, force: true });
}

// 50 000 documents in 500 files, each load a fresh process (cold, as `converge validate` runs).
const BIG = { files: 500, docsPerFile: 100, runs: 3, targetMs: 5000, targetMb: 300 };
const big = await mkdtemp(join(tmpdir(), 'converge-bench-validate-big-'));
try {
  await writeCorpus(big, BIG.files, BIG.docsPerFile);
  const { spawnSync } = await import('node:child_process');
  const { fileURLToPath } = await import('node:url');
  const runs = [];
  for (let i = 0; i < BIG.runs; i++) {
    const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', big, String(BIG.files * BIG.docsPerFile)], { encoding: 'utf8' });
    if (r.status !== 0) {
      console.log(`validate child exited ${r.status}: ${r.stderr.slice(0, 2000)}`);
      process.exitCode = 1;
      break;
    }
    runs.push(JSON.parse(r.stdout.trim().split('\n').pop()));
  }
  if (runs.length > 0) {
    const ms = runs.map((r) => r.ms).sort((a, b) => a - b);
    const mb = runs.map((r) => r.maxRssMb).sort((a, b) => a - b);
    const cpu = runs.map((r) => r.cpuMs).sort((a, b) => a - b);
    console.log(
      `validate: ${BIG.files * BIG.docsPerFile} documents in ${BIG.files} files (fresh process each): median ${(ms[Math.floor(ms.length / 2)] / 1000).toFixed(2)} s ` +
        `(${ms.map((v) => (v / 1000).toFixed(2)).join(', ')}; target ≤ ${BIG.targetMs / 1000} s), CPU median ${(cpu[Math.floor(cpu.length / 2)] / 1000).toFixed(2)} s, peak RSS median ${mb[Math.floor(mb.length / 2)].toFixed(0)} MB ` +
        `(${mb.map((v) => v.toFixed(0)).join(', ')}; target ≤ ${BIG.targetMb} MB)`,
    );
  }
} finally {
  await rm(big, { recursive: true, force: true });
}
