// Shared helpers for the benchmarks: a sandbox, a temp dir of manifests, and a timed CLI run.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CLI = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));

export async function tempDir(files) {
  const dir = await mkdtemp(join(tmpdir(), 'converge-bench-'));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Runs the built CLI (or another build's `cli`, to compare); resolves with exit code, output, wall ms and the child's peak RSS (from /proc when available). */
export function runCli(args, { cwd, env, nodeArgs = [], cli = CLI }) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(process.execPath, [...nodeArgs, cli, ...args], { cwd, env: { PATH: process.env.PATH, HOME: cwd, ...env } });
    let stdout = '';
    let stderr = '';
    let peakKb = 0;
    const poll = setInterval(() => peakKb = Math.max(peakKb, rssKb(child.pid)), 20);
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(poll);
      resolve({ code, stdout, stderr, ms: Number(process.hrtime.bigint() - t0) / 1e6, peakMb: peakKb / 1024 });
    });
  });
}

import { readFileSync } from 'node:fs';
function rssKb(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = /VmHWM:\s+(\d+) kB/.exec(status);
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

export function table(rows) {
  const cols = Object.keys(rows[0]);
  const width = cols.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c]).length)));
  const line = (vals) => '| ' + vals.map((v, i) => String(v).padEnd(width[i])).join(' | ') + ' |';
  console.log(line(cols));
  console.log('|' + width.map((w) => '-'.repeat(w + 2)).join('|') + '|');
  for (const r of rows) console.log(line(cols.map((c) => r[c])));
}

/** The i-th JWT auth method of a benchmark fleet, as a manifest document. */
export function authMethodDoc(i) {
  return `kind: NomadAuthMethod
name: method-${i}
spec:
  type: JWT
  tokenLocality: ${i % 2 ? 'local' : 'global'}
  maxTokenTtl: ${1 + (i % 12)}h
  config:
    jwksUrl: https://idp-${i}.example/jwks
    boundAudiences: [nomad-${i}]
    claimMappings: { sub: subject }
`;
}
