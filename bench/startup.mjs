// Start-up: `converge --version` (target ≤ 150 ms), and `converge validate examples` with the build's
// precompiled schema validators and without them (a copy of dist/ without schema-validators.cjs, so the
// process compiles the schemas itself, as every process did before the build made them). Medians of 20
// runs after 2 warm-ups; the two builds alternate, so a busy neighbour slows both alike.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('..', import.meta.url));
const cli = `${repo}dist/cli/main.js`;
// Inside the repository, so the copy finds node_modules; removed at the end.
const copy = `${repo}.bench-startup/`;

function run(main, args) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [main, ...args], { encoding: 'utf8', cwd: repo });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`converge ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// Node's own start beside it (`node -e 0`, alternating with converge): what converge adds is the difference,
// which stays comparable when the machine's Node starts slower or faster than on another day.
const version = [];
const bare = [];
for (let i = 0; i < 22; i++) {
  const ms = run(cli, ['--version']);
  const nodeMs = run('-e', ['0']);
  if (i >= 2) {
    version.push(ms);
    bare.push(nodeMs);
  }
}
console.log(
  `startup: converge --version median ${median(version).toFixed(1)} ms, best ${Math.min(...version).toFixed(1)} ms over ${version.length} runs (target ≤ 150 ms); ` +
    `node -e 0 median ${median(bare).toFixed(1)} ms, so converge adds ${(median(version) - median(bare)).toFixed(1)} ms`,
);

rmSync(copy, { recursive: true, force: true });
mkdirSync(copy);
try {
  cpSync(`${repo}dist`, `${copy}dist`, { recursive: true });
  cpSync(`${repo}schemas`, `${copy}schemas`, { recursive: true });
  cpSync(`${repo}package.json`, `${copy}package.json`);
  rmSync(`${copy}dist/manifest/schema-validators.cjs`);
  const wall = { precompiled: [], compiled: [] };
  for (let i = 0; i < 22; i++) {
    for (const [name, main] of [['precompiled', cli], ['compiled', `${copy}dist/cli/main.js`]]) {
      const ms = run(main, ['validate', 'examples']);
      if (i >= 2) wall[name].push(ms);
    }
  }
  const [p, c] = [median(wall.precompiled), median(wall.compiled)];
  console.log(
    `startup: converge validate examples median ${p.toFixed(1)} ms with the build's precompiled schemas, ${c.toFixed(1)} ms compiling them (${wall.precompiled.length} runs each, alternating; ratio ${(p / c).toFixed(2)})`,
  );
} finally {
  rmSync(copy, { recursive: true, force: true });
}
