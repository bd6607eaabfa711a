import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect } from 'vitest';
import { REPO } from '../e2e/harness.js';

/**
 * The invalid-manifest corpus (test/fixtures/manifests/invalid, one case per file or folder, `# ERROR:`
 * on every failing line) seen from the CLI: which cases must stop a run, and where their errors are.
 */
export const INVALID = join(REPO, 'test/fixtures/manifests/invalid');

function yamlFiles(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true }).flatMap((e) => yamlFiles(join(path, e.name)));
}

export interface CorpusCase {
  /** File or folder name under INVALID, passed to the CLI as its path argument. */
  name: string;
  /** `file:line` (file relative to INVALID) of every `# ERROR:` and `# WARNING:` mark. */
  marked: Set<string>;
  errorMarks: number;
}

/** Cases with at least one `# ERROR:` mark (warning-only cases are valid input: they do not stop a run). */
export function errorCases(): CorpusCase[] {
  const out: CorpusCase[] = [];
  for (const name of readdirSync(INVALID).sort()) {
    const marked = new Set<string>();
    let errorMarks = 0;
    for (const f of yamlFiles(join(INVALID, name))) {
      readFileSync(f, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (/#\s*(ERROR|WARNING):/.test(line)) marked.add(`${relative(INVALID, f)}:${i + 1}`);
          if (/#\s*ERROR:/.test(line)) errorMarks++;
        });
    }
    if (errorMarks > 0) out.push({ name, marked, errorMarks });
  }
  return out;
}

/** `on FILE line L, column C` (Terraform's diagnostic header, views/diagnostics.ts) → `FILE:L:C`. */
export function locations(stderr: string): string[] {
  return [...stderr.matchAll(/^ {2}on (.+) line (\d+), column (\d+):$/gm)].map((m) => `${m[1]}:${m[2]}:${m[3]}`);
}

/** A JavaScript stack frame (`    at fn (file.js:1:2)`) or the catch-all for unexpected throws. */
export const STACK = /^\s+at .+(:\d+:\d+\)?|native|<anonymous>)$/m;

/**
 * What every rejected input must look like on the way out: exit 1, nothing on stdout, at least one
 * `Error:` with a file:line:col location, no stack trace, no "unexpected" catch-all.
 */
export function expectCleanRejection(r: { code: number; stdout: string; stderr: string }, label: string): string[] {
  expect(r.code, `${label}: exit code\n${r.stderr}`).toBe(1);
  expect(r.stdout, `${label}: stdout`).toBe('');
  expect(r.stderr, `${label}: an Error`).toMatch(/^Error: /m);
  expect(r.stderr, `${label}: stack trace`).not.toMatch(STACK);
  expect(r.stderr, `${label}: unexpected throw`).not.toContain('CONVERGE_DEBUG');
  const locs = locations(r.stderr);
  expect(locs.length, `${label}: a file:line:col location\n${r.stderr}`).toBeGreaterThan(0);
  return locs;
}

/** Every location printed is one of the case's marked lines (so the CLI points where the corpus says). */
export function expectMarkedLocations(c: CorpusCase, locs: string[], label: string): void {
  for (const l of locs) {
    const fileLine = l.replace(/:\d+$/, '');
    expect(c.marked.has(fileLine), `${label}: ${l} is not a marked line (${[...c.marked].join(', ')})`).toBe(true);
  }
}
