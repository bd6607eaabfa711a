import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadManifests } from '../../src/manifest/index.js';
import { formatDuration } from '../../src/model/duration-text.js';
import { lockRecoveryMs } from '../../src/state/nomad/lock.js';
import { assertBuilt, cleanEnv, REPO, runCli } from '../cli/run-cli.js';

/*
 * The docs say what the tool does. Regressions: docs/ci.md's Settings snippet had no `name` (required);
 * it gave a dead run's lock 30 s + 15 s to clear while the tool says 1 min 15 s (2 × the lease, then the
 * lock delay) and said saved plans record absolute paths (they are relative); docs/manifests.md's schema
 * modeline named node_modules/converge/ (the package is converge-cli) and gave binding-rule descriptions
 * in characters (they are bytes); the README's -q / -v disagreed with --help; `demo --help` showed the
 * default of --examples as "".
 */

const read = (rel: string) => readFileSync(join(REPO, rel), 'utf8');
const DOCS = ['README.md', 'docs/ci.md', 'docs/manifests.md', 'docs/workspace-sets.md'];
const CROSS_SNIPPET = new Set(['nocode.workspace.module', 'nomad.login-test.no-such-method', 'manifest.moved-to-undeclared']);

/** ```yaml blocks holding whole documents (a line `kind: …` at the start), not field fragments. */
function documentSnippets(text: string): string[] {
  return [...text.matchAll(/```yaml\n([^]*?)```/g)].map((m) => m[1] ?? '').filter((b) => /^kind: /m.test(b));
}

describe('the docs match the tool', () => {
  it('every whole-document YAML snippet validates', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'converge-doc-snippets-'));
    try {
      const bad: string[] = [];
      let n = 0;
      for (const doc of DOCS) {
        for (const snippet of documentSnippets(read(doc))) {
          const file = `snippet-${n++}.yaml`;
          await writeFile(join(dir, file), snippet);
          const r = await loadManifests([file], { cwd: dir });
          // A snippet may name an object another snippet shows (a workspace's module): that rule alone is left out.
          for (const d of r.diagnostics.filter((x) => x.severity === 'error' && !CROSS_SNIPPET.has(x.code))) bad.push(`${doc}: ${d.summary}\n${snippet}`);
        }
      }
      expect(n).toBeGreaterThan(2);
      expect(bad).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('docs/environments.md: its Settings and manifest snippets validate together in each environment they declare', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'converge-doc-environments-'));
    try {
      const snippets = documentSnippets(read('docs/environments.md'));
      expect(snippets.length).toBeGreaterThanOrEqual(2);
      for (const [i, snippet] of snippets.entries()) await writeFile(join(dir, `snippet-${i}.yaml`), snippet);
      const environments = Object.keys((await loadManifests(['.'], { cwd: dir })).desired.settings.spec.environments ?? {});
      expect(environments).toEqual(['dev', 'prod']);
      for (const environment of environments) {
        const r = await loadManifests(['.'], { cwd: dir, environment });
        expect(r.diagnostics.filter((d) => d.severity === 'error').map((d) => `${environment}: ${d.summary}`)).toEqual([]);
        expect(r.desired.objects.map((o) => o.name)).toEqual(['okta']);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('docs/ci.md gives the time the tool gives for a dead run\'s lock to clear, and relative plan paths', () => {
    const ci = read('docs/ci.md').replace(/\s+/g, ' ');
    expect(ci).toContain(`within ${formatDuration(lockRecoveryMs('30s'))} of its last renewal`);
    expect(ci).not.toMatch(/absolute manifest paths/);
    expect(ci).toContain('manifest paths relative to the working directory');
  });

  it('names the package as npm knows it wherever a path goes through node_modules', () => {
    const name = (JSON.parse(read('package.json')) as { name: string }).name;
    for (const doc of DOCS) {
      for (const m of read(doc).matchAll(/node_modules\/([a-z-]+)\//g)) expect(m[1], doc).toBe(name);
    }
  });

  it('gives binding-rule descriptions their limit in bytes, as the schema and the check count them', () => {
    const schema = read('schemas/nomad-binding-rule.json');
    expect(schema).toContain('256 bytes');
    const section = read('docs/manifests.md').split('## ').find((s) => s.startsWith('NomadBindingRule')) ?? '';
    expect(section).toMatch(/`description` \| `Description` \| At most 256 bytes/);
  });

  it('the README\'s -q and -v say what --help says; demo --help shows no empty default', async () => {
    assertBuilt();
    const env = cleanEnv(REPO);
    const help = (await runCli(['--help'], REPO, env)).stdout;
    const readme = read('README.md');
    for (const flag of ['-q, --quiet', '-v, --verbose']) {
      const fromHelp = new RegExp(`${flag}\\s+(.+)`).exec(help)?.[1]?.trim();
      expect(fromHelp, flag).toBeDefined();
      expect(readme, flag).toContain(`\`${flag}\` (${fromHelp})`);
    }
    const demo = (await runCli(['demo', '--help'], REPO, env)).stdout;
    expect(demo).not.toContain('(default: "")');
    expect(demo).toContain('bundled examples/');
  });
});
