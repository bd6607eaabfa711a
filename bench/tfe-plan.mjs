// Issue 5: plan of 50 no-code modules and 2 000 workspaces, converged, against the TFE simulator with 50 ms
// latency per request and the real 30 req/s limit on. Prints requests, 429s, wall time, and the floor the
// rate limit allows (requests ÷ 30 per second).
import { logFigures, seedFleet } from './fleet.mjs';
import { runCli, table } from './lib.mjs';

const shape = { modules: 50, workspaces: 2000 };
const LATENCY_MS = 50;
const LIMIT = 30;

const fleet = await seedFleet(shape, { latencyMs: LATENCY_MS });
try {
  console.log(`tfe-plan: ${shape.modules} no-code modules, ${shape.workspaces} workspaces (3 variables each), converged; ` +
    `${LATENCY_MS} ms latency, ${LIMIT} req/s limit on (seeded by one apply in ${fleet.seedSeconds.toFixed(0)} s)`);
  const r = await runCli(['plan', '--detailed-exitcode', '--quiet'], { cwd: fleet.dir, env: fleet.env });
  const f = logFigures(fleet.sandbox.log);
  const floorS = f.tfeRequests / LIMIT;
  table([
    {
      plan: 'converged, with state',
      'exit code': `${r.code} (0 = no changes)`,
      requests: f.tfeRequests,
      '429s': `${f.tfe429} (goal 0)`,
      'wall s': (r.ms / 1000).toFixed(1),
      'floor s (req ÷ 30/s)': floorS.toFixed(1),
      'wall ÷ floor': `${(r.ms / 1000 / floorS).toFixed(2)} (goal ≤ 1.2)`,
    },
  ]);
  if (r.code !== 0) console.log(r.stdout.slice(0, 2000), r.stderr.slice(0, 2000));
} finally {
  await fleet.close();
}
