// Plan of 20 auth methods + 50 no-code modules + 2 000 workspaces, converged, against the sandbox with
// 50 ms latency on both services and the real 30 req/s HCP Terraform limit. Reports requests, 429s, wall
// time, the floor, the peak RSS of the converge process, and the same refresh done the way Terraform's
// providers do it (bench/tf-like-reader.mjs). Its converge row is also the former TFE plan benchmark (50 no-code modules +
// 2 000 workspaces, converged, 30 req/s): the earlier bench/tfe-plan.mjs planned this same HCP Terraform fleet
// (without the auth methods, whose one Nomad list runs beside it), so it was folded in here.
//
// The floor: max(HCP Terraform requests ÷ 30 per second, 50 ms × the longest chain of dependent requests).
// Only HCP Terraform is rate limited (Nomad requests run beside it). The longest chain converge has is 3:
// the first page of the workspace list (it gives total-pages) → a later page (it names a workspace's id)
// → that workspace's variables; registry list → no-code module read is 2; the Nomad list is 1.
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { endpointCounts, logFigures, printEndpointCounts, runListCount, seedFleet } from './fleet.mjs';
import { runCli, table } from './lib.mjs';
import { terraformLikeRefresh, workspaceVarIds } from './tf-like-reader.mjs';

const shape = { modules: 50, workspaces: Number(process.env.BENCH_WORKSPACES ?? 2000), authMethods: 20 };
const LATENCY_MS = 50;
const LIMIT = 30;
const CHAIN = 3;
const hook = fileURLToPath(new URL('./maxrss-hook.mjs', import.meta.url));

// `node bench/fleet-plan.mjs --empty-state`: the same converged fleet planned with its state file gone (a user
// recovering a lost state: every object is adopted), with HCP Terraform's run-list ration (30 a minute) on as in
// the sandbox by default. Its floor counts only the requests a plan needs whatever it adopts (lists, module and
// variable reads): run lists and single run reads are what adoption may add, and the goal is none of them. Only
// converge's plan is measured (no readers).
if (process.argv.includes('--empty-state')) {
  const fleet = await seedFleet(shape, { latencyMs: LATENCY_MS });
  try {
    await rm(join(fleet.dir, 'state.json'));
    const r = await runCli(['plan', '--detailed-exitcode', '--quiet'], { cwd: fleet.dir, env: fleet.env });
    if (r.code !== 0) console.log(`converge plan exited ${r.code}:\n${r.stdout.slice(0, 2000)}${r.stderr.slice(0, 2000)}`);
    const c = logFigures(fleet.sandbox.log);
    const counts = endpointCounts(fleet.sandbox.log);
    const runReads = counts.filter(([k]) => /^GET \/runs\/:id$/.test(k)).reduce((n, [, k]) => n + k, 0);
    const minimum = c.tfeRequests - runListCount(counts) - runReads;
    const floorMs = Math.max((minimum / LIMIT) * 1000, LATENCY_MS * CHAIN);
    console.log(
      `fleet-plan --empty-state: ${shape.authMethods} auth methods + ${shape.modules} no-code modules + ${shape.workspaces} workspaces, converged, ` +
        `planned with no state (all adopted); ${LATENCY_MS} ms latency, ${LIMIT} req/s, run lists rationed at 30 a minute`,
    );
    table([
      {
        'exit code': `${r.code} (0 = no changes)`,
        'TFE requests': c.tfeRequests,
        minimum,
        'run lists': `${runListCount(counts)} (goal 0)`,
        'run reads': runReads,
        '429s': `${c.tfe429} (goal 0)`,
        'wall s': (r.ms / 1000).toFixed(1),
        'floor s': (floorMs / 1000).toFixed(1),
        'wall ÷ floor': `${(r.ms / floorMs).toFixed(2)} (goal ≤ 1.2)`,
      },
    ]);
    printEndpointCounts(counts);
  } finally {
    await fleet.close();
  }
  process.exit(0);
}

// Seeding keeps its converged check plan (at 10 000 req/s) before the measured one: without it the measured
// plan took 82.1 and 82.0 s (1.19 × the floor) in two whole runs against 80.9 s with it, and this figure's goal
// (≤ 1.2) has no room to lose it for the 10 s it saves.
const fleet = await seedFleet(shape, { latencyMs: LATENCY_MS });
try {
  console.log(
    `fleet-plan: ${shape.authMethods} auth methods + ${shape.modules} no-code modules + ${shape.workspaces} workspaces (3 variables each), ` +
      `converged; ${LATENCY_MS} ms latency, ${LIMIT} req/s HCP Terraform limit (seeded by one apply in ${fleet.seedSeconds.toFixed(0)} s)`,
  );
  const rssFile = join(fleet.dir, 'maxrss.txt');
  const r = await runCli(['plan', '--detailed-exitcode', '--quiet'], {
    cwd: fleet.dir,
    env: { ...fleet.env, BENCH_MAXRSS_FILE: rssFile },
    nodeArgs: ['--import', hook],
  });
  if (r.code !== 0) console.log(`converge plan exited ${r.code}:\n${r.stdout.slice(0, 2000)}${r.stderr.slice(0, 2000)}`);
  const c = logFigures(fleet.sandbox.log);
  const maxRssMb = Number(await readFile(rssFile, 'utf8')) / 1024;
  await rm(rssFile, { force: true });
  const floorMs = Math.max((c.tfeRequests / LIMIT) * 1000, LATENCY_MS * CHAIN);
  // bench/run.mjs starts the other benchmarks now: converge's plan was measured alone, and what follows is
  // untimed (the variable ids) or paced (the readers use little CPU, printed below).
  process.send?.('measured-alone');

  // The variable ids Terraform would hold in its state, gathered untimed with the limit lifted.
  const state = JSON.parse(await readFile(join(fleet.dir, 'state.json'), 'utf8'));
  fleet.sandbox.tfe.control.setRateLimit(10_000);
  const varIds = await workspaceVarIds({ tfeAddress: fleet.env.TFE_ADDRESS, tfeToken: fleet.env.TFE_TOKEN, state });
  fleet.sandbox.tfe.control.setRateLimit(LIMIT);
  // The two readers run side by side, each with its own token (HCP Terraform limits each user, see
  // docs/reference/hcp-terraform-api.md §8; the sandbox counts each seeded token as one user), so each gets the whole 30 req/s as it
  // would alone; converge's plan above ran alone. Each reader counts its own requests and 429s (the shared
  // request log would mix them). Let earlier requests leave the one-second window first.
  await new Promise((res) => setTimeout(res, 1100));
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const readerTokens = [fleet.sandbox.tfe.tokens.team, fleet.sandbox.tfe.tokens.organization];
  const readers = await Promise.all(
    [true, false].map(async (perVariable, i) => {
      const tf = await terraformLikeRefresh({
        tfeAddress: fleet.env.TFE_ADDRESS,
        tfeToken: readerTokens[i],
        nomadAddress: fleet.env.NOMAD_ADDR,
        nomadToken: fleet.env.NOMAD_TOKEN,
        state,
        ...(perVariable ? { varIds } : {}),
      });
      return { perVariable, tf };
    }),
  );
  const cpu = process.cpuUsage(cpu0);
  const readersCpuShare = (cpu.user + cpu.system) / 1000 / (performance.now() - t0);

  table([
    {
      reader: 'converge plan',
      'exit code': `${r.code} (0 = no changes)`,
      'TFE requests': c.tfeRequests,
      'Nomad requests': c.nomadRequests,
      '429s': `${c.tfe429} (goal 0)`,
      'wall s': (r.ms / 1000).toFixed(1),
      'floor s': (floorMs / 1000).toFixed(1),
      'wall ÷ floor': `${(r.ms / floorMs).toFixed(2)} (goal ≤ 1.2)`,
      'peak RSS MB': `${maxRssMb.toFixed(0)} (goal ≤ 200)`,
    },
    ...readers.map(({ perVariable, tf }) => ({
      reader: perVariable
        ? 'Terraform-like: 1 read per object, each variable its own (tfe_variable), parallelism 10, go-tfe limiter + backoff'
        : 'cheaper than Terraform: the same, but one variable list per workspace',
      'exit code': '-',
      'TFE requests': tf.tfeRequests,
      'Nomad requests': tf.nomadRequests,
      '429s': tf.tfe429,
      'wall s': (tf.ms / 1000).toFixed(1),
      'floor s': '-',
      'wall ÷ floor': '-',
      'peak RSS MB': '-',
    })),
  ]);
  for (const { perVariable, tf } of readers) {
    console.log(`converge is ${(tf.ms / r.ms).toFixed(2)}× faster than the ${perVariable ? 'Terraform-like reader (goal ≥ 5×)' : 'cheaper one-list-per-workspace reader'}`);
  }
  console.log(`the two readers ran side by side with their own tokens; this process (sandbox + readers) used ${(readersCpuShare * 100).toFixed(0)} % of one core meanwhile`);
  console.log(`peak RSS is the converge child's process.resourceUsage().maxRSS at exit (the /proc VmHWM poll saw ${r.peakMb.toFixed(0)} MB)`);
} finally {
  await fleet.close();
}
