// `npm run bench`: runs every benchmark in turn; each prints its own figures. Needs `npm run build` first
// (the npm script does it). Benchmarks are measurements, not tests: they never fail CI on a slow machine,
// but each prints its target beside the figure so a reader can compare.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const only = process.argv.slice(2);
const benches = ['startup.mjs', 'validate.mjs', 'state-writes.mjs', 'nomad-plan.mjs', 'tfe-plan.mjs', 'fleet-plan.mjs', 'fleet-memory.mjs', 'upgrade.mjs'];

for (const b of benches) {
  if (only.length > 0 && !only.some((o) => b.startsWith(o))) continue;
  if (!existsSync(here + b)) {
    console.log(`${b}: missing`);
    continue;
  }
  console.log(`\n── ${b}`);
  const r = spawnSync(process.execPath, ['--expose-gc', here + b], { stdio: 'inherit' });
  if (r.status !== 0) console.log(`${b}: exited ${r.status}`);
}
