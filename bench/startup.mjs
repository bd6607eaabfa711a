// Start-up time of `converge --version` (target ≤ 150 ms): median of 20 runs after 2 warm-ups.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const times = [];
for (let i = 0; i < 22; i++) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [cli, '--version'], { encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`converge --version exited ${r.status}: ${r.stderr}`);
  if (i >= 2) times.push(ms);
}
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)];
console.log(`startup: converge --version median ${median.toFixed(1)} ms, best ${times[0].toFixed(1)} ms over ${times.length} runs (target ≤ 150 ms)`);
