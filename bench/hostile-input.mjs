// Times the inputs that were once quadratic or slow (their regression tests check the results; the timing is
// here, where a busy machine cannot fail a test). Run after `npm run build`:
//   node bench/hostile-input.mjs
import { performance } from 'node:perf_hooks';
import { parseYamlFile } from '../dist/manifest/yaml-tree.js';
import { didYouMean } from '../dist/diagnostics/suggest.js';
import { renderDiagnosticsText } from '../dist/views/diagnostics.js';

const RUNS = 3;

function median(fn) {
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b)[Math.floor(RUNS / 2)];
}

const keys = 'spec:\n' + Array.from({ length: 50_000 }, (_, i) => `  k${i}: ${i}\n`).join('');
const lines = Array.from({ length: 80_000 }, (_, i) => `name: object-${i + 1}`).join('\r\n') + '\r\n';
const diags = Array.from({ length: 20_000 }, (_, k) => {
  const line = 4 * k + 2;
  return { severity: 'error', code: 'manifest.duplicate', summary: `dup ${line}`, range: { file: 'big.yaml', start: { line, col: 7 }, end: { line, col: 20 } } };
});
const hugeWord = 'K'.repeat(3_000_000);
const kinds = ['Settings', 'NomadAuthMethod', 'NomadBindingRule', 'NoCodeModule', 'NoCodeWorkspace'];

const cases = [
  // Once 300 s for 100 000 keys (the YAML parser's own unique-key check compared every pair).
  ['parse a mapping of 50 000 keys', 8000, () => parseYamlFile(keys, 'keys.yaml')],
  // Once 220 s for 60 000 duplicate documents (each source line found by scanning from the top).
  ['render 20 000 diagnostics of an 80 000-line file', 1000, () => renderDiagnosticsText(diags, { sources: new Map([['big.yaml', lines]]), color: false })],
  // Once about a second of Levenshtein per candidate.
  ['did-you-mean for a 3 MB word', 200, () => didYouMean(hugeWord, kinds)],
];
for (const [what, targetMs, fn] of cases) {
  const ms = median(fn);
  console.log(`hostile input: ${what}: median ${ms.toFixed(1)} ms of ${RUNS} (target < ${targetMs} ms)`);
}
