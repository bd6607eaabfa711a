// Peak RSS of a converged plan over 10 000 no-code workspaces (3 variables each) + 50 modules.
// The fleet is seeded through the sandbox's control API and adopted by one apply (bench/fleet.mjs); the plan
// runs with 50 ms latency on and, so that this benchmark takes a minute and not six, the HCP Terraform limit
// raised to 10 000 req/s: memory is what is measured here (the 30 req/s pacing is measured by
// fleet-plan). Extra node flags for the measured process (e.g. --heap-prof) go in BENCH_NODE_ARGS; another
// build's CLI to measure instead (an older commit's dist/cli/main.js, to compare) in BENCH_MEASURED_CLI.
// The floor (docs/performance.md): the peak RSS of the same plan over 100 workspaces, plus the live heap the
// other 9 900 workspaces need (the largest heap left after a mark-compact, from --trace-gc, 10 000 minus 100).
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { logFigures, seedFleet } from './fleet.mjs';
import { runCli, table } from './lib.mjs';

const shape = { modules: 50, workspaces: Number(process.env.BENCH_WORKSPACES ?? 10_000) };
const LATENCY_MS = 50;
const GOAL_MB = 200;
const hook = fileURLToPath(new URL('./maxrss-hook.mjs', import.meta.url));

/** One measured plan: exit code, requests, wall, peak RSS (maxRSS) and the largest heap a mark-compact left. */
async function measurePlan(fleet) {
  const rssFile = join(fleet.dir, 'maxrss.txt');
  const extra = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const r = await runCli(['plan', '--detailed-exitcode', '--quiet'], {
    cwd: fleet.dir,
    env: { ...fleet.env, BENCH_MAXRSS_FILE: rssFile },
    nodeArgs: ['--import', hook, '--trace-gc', ...extra],
    ...(process.env.BENCH_MEASURED_CLI ? { cli: process.env.BENCH_MEASURED_CLI } : {}),
  });
  if (r.code !== 0) console.log(`converge plan exited ${r.code}:\n${r.stderr.slice(0, 2000)}`);
  const maxRssMb = Number(await readFile(rssFile, 'utf8')) / 1024;
  await rm(rssFile, { force: true });
  // --trace-gc prints `Mark-Compact <before> (<committed>) -> <after> (<committed>) MB` per full collection.
  const live = [...r.stdout.matchAll(/Mark-Compact[^\n]*?-> ([\d.]+) \(/g)].map((m) => Number(m[1]));
  return { r, maxRssMb, liveMb: live.length > 0 ? Math.max(...live) : 0, counts: logFigures(fleet.sandbox.log) };
}

async function measureFleet(s) {
  // No separate converged check: the measured plan is that check (a non-zero exit is printed).
  const fleet = await seedFleet(s, { latencyMs: LATENCY_MS, limit: 10_000, check: false });
  try {
    return { ...(await measurePlan(fleet)), seedSeconds: fleet.seedSeconds };
  } finally {
    await fleet.close();
  }
}

const small = await measureFleet({ modules: shape.modules, workspaces: 100 });
const big = await measureFleet(shape);
const floorMb = small.maxRssMb + Math.max(0, big.liveMb - small.liveMb);
console.log(
  `fleet-memory: ${shape.modules} no-code modules + ${shape.workspaces} workspaces (3 variables each), converged; ${LATENCY_MS} ms latency, ` +
    `limit raised to 10 000 req/s (seeded through the control API + one adopting apply in ${big.seedSeconds.toFixed(0)} s)`,
);
table(
  [
    ['100 workspaces', small],
    [`${shape.workspaces} workspaces`, big],
  ].map(([label, m]) => ({
    plan: label,
    'exit code': `${m.r.code} (0 = no changes)`,
    'TFE requests': m.counts.tfeRequests,
    '429s': m.counts.tfe429,
    'wall s': (m.r.ms / 1000).toFixed(1),
    'peak RSS MB (maxRSS)': m.maxRssMb.toFixed(0),
    'peak live heap MB (after mark-compact)': m.liveMb.toFixed(1),
  })),
);
console.log(
  `floor = ${small.maxRssMb.toFixed(0)} MB (100-workspace plan) + ${(big.liveMb - small.liveMb).toFixed(1)} MB (live heap of the other workspaces) = ${floorMb.toFixed(0)} MB; ` +
    `peak ${big.maxRssMb.toFixed(0)} MB = ${(big.maxRssMb / floorMb).toFixed(2)} × the floor (goal ≤ 1.15) and goal ≤ ${GOAL_MB} MB`,
);
