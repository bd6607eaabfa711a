// A module version bump across N no-code workspaces with --parallelism N, runs of about 2 s, against
// the sandbox with the real 30 req/s HCP Terraform limit and 50 ms latency. Reports HCP Terraform requests, 429s,
// wall time, the floor and the ratio (goal ≤ 1.5).
//
// The floor: max(minimum requests ÷ 30 per second, the longest run + the initiations ÷ 30 per second), where the
// minimum requests are the plan's own reads (measured by a plan of the same bump) plus one initiation and one
// confirmation per workspace. `node bench/upgrade.mjs 200` runs one size; default 200 and 2000.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { endpointCounts, fleetManifests, logFigures, printEndpointCounts, runListCount, seedFleet } from './fleet.mjs';
import { runCli, table } from './lib.mjs';

const LATENCY_MS = 50;
const LIMIT = 30;
/** One run: 9 steps (pending … cost_estimated, confirmed … applied) of 220 ms ≈ 2 s. */
const STEP_MS = 220;
const STEPS = 9;
const creating = process.argv.includes('--create');
const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);

// `node bench/upgrade.mjs --create 40`: creating N workspaces from the module and following their first runs (runs
// of about 2 s, --parallelism N), with HCP Terraform's run-list ration (30 a minute) on as in the sandbox. Prints the
// requests by endpoint: the goal is no run list per workspace (a first run is found from the workspace itself).
if (creating) {
  const n = sizes[0] ?? 40;
  const fleet = await seedFleet({ modules: 1, workspaces: 0 }, { latencyMs: LATENCY_MS });
  try {
    fleet.sandbox.tfe.control.setStepDelay(STEP_MS);
    await writeFile(join(fleet.dir, 'tfe.yaml'), fleetManifests({ modules: 1, workspaces: n })['tfe.yaml']);
    fleet.sandbox.log.clear();
    const r = await runCli(['apply', '--auto-approve', '--quiet', '--parallelism', String(n)], { cwd: fleet.dir, env: fleet.env });
    if (r.code !== 0) console.log(`converge apply exited ${r.code}:\n${r.stdout.slice(0, 2000)}${r.stderr.slice(0, 2000)}`);
    const c = logFigures(fleet.sandbox.log);
    const counts = endpointCounts(fleet.sandbox.log);
    console.log(`upgrade --create: ${n} workspaces created and their first runs followed (~2 s runs, ${LATENCY_MS} ms latency, ${LIMIT} req/s, run lists rationed at 30 a minute)`);
    table([
      {
        workspaces: n,
        'exit code': r.code,
        'TFE requests': c.tfeRequests,
        'run lists': `${runListCount(counts)} (goal 0 per workspace)`,
        '429s': c.tfe429,
        'wall s': (r.ms / 1000).toFixed(1),
      },
    ]);
    printEndpointCounts(counts);
  } finally {
    await fleet.close();
  }
  process.exit(0);
}

const rows = [];
// The larger size first: in `npm run bench` this runs beside the CPU-bound benchmarks, and the smaller run,
// whose fixed costs (start-up, loading, the last run's 2 s) weigh most against its 20 s floor, then comes
// after they have ended, beside fleet-plan's readers only (bench/run.mjs).
for (const n of sizes.length > 0 ? sizes : [2000, 200]) {
  const fleet = await seedFleet({ modules: 1, workspaces: n }, { latencyMs: LATENCY_MS });
  try {
    const { control } = fleet.sandbox.tfe;
    control.publishModuleVersion('acme', 'svc00', 'aws', '1.2.0');
    await new Promise((r) => setTimeout(r, 50));
    control.setStepDelay(STEP_MS);
    const manifest = join(fleet.dir, 'tfe.yaml');
    await writeFile(manifest, (await readFile(manifest, 'utf8')).replace('versionPin: 1.1.0', 'versionPin: 1.2.0'));
    const plan = await runCli(['plan', '--quiet'], { cwd: fleet.dir, env: fleet.env });
    const planRequests = logFigures(fleet.sandbox.log).tfeRequests;
    await new Promise((r) => setTimeout(r, 1100));
    fleet.sandbox.log.clear();
    const r = await runCli(['apply', '--auto-approve', '--quiet', '--parallelism', String(n)], { cwd: fleet.dir, env: fleet.env });
    if (r.code !== 0) console.log(`converge apply exited ${r.code} (plan ${plan.code}):\n${r.stdout.slice(0, 2000)}${r.stderr.slice(0, 2000)}`);
    const c = logFigures(fleet.sandbox.log);
    const entries = fleet.sandbox.log.entries().filter((e) => e.service === 'tfe');
    const count = (re) => entries.filter((e) => re.test(`${e.method} ${e.path}?${e.query}`)).length;
    if (process.env.BENCH_UPGRADE_LOG) {
      const { writeFileSync } = await import('node:fs');
      writeFileSync(`${process.env.BENCH_UPGRADE_LOG}-${n}.json`, JSON.stringify(entries));
    }
    const minimum = planRequests + 2 * n;
    const floorMs = Math.max((minimum / LIMIT) * 1000, STEPS * STEP_MS + (n / LIMIT) * 1000);
    const counts = endpointCounts(fleet.sandbox.log);
    console.log(`${n} workspaces: run lists ${runListCount(counts)}`);
    printEndpointCounts(counts);
    rows.push({
      workspaces: n,
      'TFE requests': c.tfeRequests,
      'minimum': minimum,
      'initiate / confirm': `${count(/^POST [^?]*\/upgrade\?/)} / ${count(/^POST [^?]*\/upgrade\/run-/)}`,
      'sweep pages': count(/^GET [^?]*\/organizations\/[^/]+\/workspaces\?.*include=current_run/),
      'run reads alone': count(/^GET [^?]*\/runs\/run-[^/?]*\?|^GET [^?]*\/upgrade\/run-/),
      '429s': `${c.tfe429} (goal 0)`,
      'wall s': (r.ms / 1000).toFixed(1),
      'floor s': (floorMs / 1000).toFixed(1),
      'wall ÷ floor': `${(r.ms / floorMs).toFixed(2)} (goal ≤ 1.5)`,
    });
  } finally {
    await fleet.close();
  }
}
table(rows.sort((a, b) => a.workspaces - b.workspaces));
