// Do the YAML fast paths earn their place? Times `converge validate` of 50 000 documents in 500 files (the corpus
// of bench/validate.mjs) with three builds of the same commit, each a fresh process, in interleaved rounds:
//   shipped  — as built: the block scanner (src/manifest/yaml-block-scanner.ts), then the CST reader
//              (yaml-cst-values.ts), over yaml's browser build (yaml-build.ts);
//   cst      — the block scanner off: every document read by the CST reader, browser build;
//   cst-node — the block scanner and yaml-build.ts off: the CST reader over yaml's Node build.
// The variants are copies of dist/ with one line changed each (the lines are checked, so a refactor that moves
// them stops this script instead of measuring the wrong build). Not in `npm run bench`. Run after `npm run build`:
//   node bench/yaml-readers.mjs            (3 rounds; ROUNDS=5 for more)
// Prints per run and the medians: wall, CPU (user + system of the process) and peak RSS (ru_maxrss), with the
// load average, since the machine is shared. Goal for `validate` of 50 000 documents: ≤ 5 s and ≤ 300 MB.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeCorpus } from './validate-corpus.mjs';

const repo = fileURLToPath(new URL('..', import.meta.url));
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const FILES = 500;
const DOCS_PER_FILE = 100;
const GOAL = { seconds: 5, mb: 300 };

const SCANNER_LINE = 'const fast = scanCommonYaml(piece, table) ?? readCommonYaml(piece, table);';
const BUILD_LINE = 'export const yamlParser = await fasterYamlBuild(import.meta.url);';
const VARIANTS = {
  shipped: [],
  cst: [['manifest/yaml-tree.js', SCANNER_LINE, 'const fast = readCommonYaml(piece, table);']],
  'cst-node': [
    ['manifest/yaml-tree.js', SCANNER_LINE, 'const fast = readCommonYaml(piece, table);'],
    ['manifest/yaml-build.js', BUILD_LINE, 'export const yamlParser = nodeBuild;'],
  ],
};

const work = mkdtempSync(join(tmpdir(), 'converge-bench-yaml-readers-'));
try {
  for (const [name, edits] of Object.entries(VARIANTS)) {
    const root = join(work, name);
    cpSync(join(repo, 'dist'), join(root, 'dist'), { recursive: true });
    cpSync(join(repo, 'schemas'), join(root, 'schemas'), { recursive: true });
    cpSync(join(repo, 'package.json'), join(root, 'package.json'));
    symlinkSync(join(repo, 'node_modules'), join(root, 'node_modules'));
    for (const [file, from, to] of edits) {
      const path = join(root, 'dist', file);
      const text = readFileSync(path, 'utf8');
      if (!text.includes(from)) throw new Error(`dist/${file} no longer holds \`${from}\`: update this benchmark's variants`);
      writeFileSync(path, text.replace(from, to));
    }
  }
  const corpus = join(work, 'corpus');
  await writeCorpus(corpus, FILES, DOCS_PER_FILE);

  const rows = Object.fromEntries(Object.keys(VARIANTS).map((v) => [v, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of Object.keys(VARIANTS)) {
      const rssFile = join(work, 'maxrss');
      const load0 = loadavg()[0];
      const cpu0 = reapedChildrenCpuSeconds();
      const t0 = process.hrtime.bigint();
      const r = spawnSync(process.execPath, ['--import', new URL('./maxrss-hook.mjs', import.meta.url).href, join(work, name, 'dist', 'cli', 'main.js'), 'validate', corpus], {
        cwd: corpus,
        encoding: 'utf8',
        env: { PATH: process.env.PATH, HOME: corpus, BENCH_MAXRSS_FILE: rssFile },
        maxBuffer: 64 * 1024 * 1024,
      });
      const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
      if (r.status !== 0) throw new Error(`${name}: validate exited ${r.status}: ${(r.stdout + r.stderr).slice(0, 2000)}`);
      const row = { seconds, cpu: reapedChildrenCpuSeconds() - cpu0, mb: Number(readFileSync(rssFile, 'utf8')) / 1024, load: `${load0.toFixed(1)} → ${loadavg()[0].toFixed(1)}` };
      rows[name].push(row);
      console.log(`round ${round + 1} ${name.padEnd(8)} wall ${row.seconds.toFixed(2)} s, CPU ${row.cpu.toFixed(2)} s, peak RSS ${row.mb.toFixed(0)} MB, load ${row.load}`);
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  for (const [name, rs] of Object.entries(rows)) {
    const [s, c, m] = [median(rs.map((r) => r.seconds)), median(rs.map((r) => r.cpu)), median(rs.map((r) => r.mb))];
    const met = s <= GOAL.seconds && m <= GOAL.mb ? 'met' : 'not met';
    console.log(`${name.padEnd(8)} median wall ${s.toFixed(2)} s, CPU ${c.toFixed(2)} s, peak RSS ${m.toFixed(0)} MB (goal ≤ ${GOAL.seconds} s, ≤ ${GOAL.mb} MB: ${met})`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

/** User + system seconds of every child this process has reaped (Linux /proc/self/stat cutime + cstime). */
function reapedChildrenCpuSeconds() {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100; // USER_HZ is 100 on Linux
}
