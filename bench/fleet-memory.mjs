// Issue 14.4: peak RSS of a converged plan over 10 000 no-code workspaces (3 variables each) + 50 modules.
// The fleet is seeded through the sandbox's control API and adopted by one apply (bench/fleet.mjs); the plan
// runs with 50 ms latency on and, so that this benchmark takes a minute and not six, the HCP Terraform limit
// raised to 10 000 req/s: memory is what is measured here (the 30 req/s pacing is measured by
// fleet-plan). Extra node flags for the measured process (e.g. --heap-prof) go in BENCH_NODE_ARGS; another
// build's CLI to measure instead (an older commit's dist/cli/main.js, to compare) in BENCH_MEASURED_CLI.
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { logFigures, seedFleet } from './fleet.mjs';
import { runCli, table } from './lib.mjs';

const shape = { modules: 50, workspaces: Number(process.env.BENCH_WORKSPACES ?? 10_000) };
const LATENCY_MS = 50;
const GOAL_MB = 200;
const hook = fileURLToPath(new URL('./maxrss-hook.mjs', import.meta.url));

// No separate converged check: the measured plan is that check (its exit code is printed; 0 = no changes).
const fleet = await seedFleet(shape, { latencyMs: LATENCY_MS, limit: 10_000, check: false });
try {
  const rssFile = join(fleet.dir, 'maxrss.txt');
  const extra = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const r = await runCli(['plan', '--detailed-exitcode', '--quiet'], {
    cwd: fleet.dir,
    env: { ...fleet.env, BENCH_MAXRSS_FILE: rssFile },
    nodeArgs: ['--import', hook, ...extra],
    ...(process.env.BENCH_MEASURED_CLI ? { cli: process.env.BENCH_MEASURED_CLI } : {}),
  });
  if (r.code !== 0) console.log(`converge plan exited ${r.code}:\n${r.stdout.slice(0, 2000)}${r.stderr.slice(0, 2000)}`);
  const c = logFigures(fleet.sandbox.log);
  const maxRssMb = Number(await readFile(rssFile, 'utf8')) / 1024;
  await rm(rssFile, { force: true });
  console.log(
    `fleet-memory: ${shape.modules} no-code modules + ${shape.workspaces} workspaces (3 variables each), converged; ${LATENCY_MS} ms latency, ` +
      `limit raised to 10 000 req/s (seeded through the control API + one adopting apply in ${fleet.seedSeconds.toFixed(0)} s)`,
  );
  table([
    {
      'exit code': `${r.code} (0 = no changes)`,
      'TFE requests': c.tfeRequests,
      '429s': c.tfe429,
      'wall s': (r.ms / 1000).toFixed(1),
      'peak RSS MB (maxRSS)': `${maxRssMb.toFixed(0)} (goal ≤ ${GOAL_MB})`,
      'peak RSS MB (VmHWM poll)': r.peakMb.toFixed(0),
    },
  ]);
} finally {
  await fleet.close();
}
