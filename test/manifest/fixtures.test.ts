import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/diagnostics/types.js';
import { loadManifests } from '../../src/manifest/index.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURES = join(REPO, 'test/fixtures/manifests');
const INVALID = join(FIXTURES, 'invalid');

/** `# ERROR: text` / `# WARNING: text` marks; several may share a line. */
const MARK = /#\s*(ERROR|WARNING):\s*(.*?)\s*(?=#\s*(?:ERROR|WARNING):|$)/g;

function yamlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...yamlFiles(p));
    else if (/\.ya?ml$/.test(e.name)) out.push(p);
  }
  return out;
}

/** `file:line severity` → mark texts, for every file of a run. */
function marksOf(files: string[], cwd: string): Map<string, string[]> {
  const marks = new Map<string, string[]>();
  for (const f of files) {
    readFileSync(f, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        for (const m of line.matchAll(MARK)) {
          const key = `${relative(cwd, f)}:${i + 1} ${m[1]?.toLowerCase()}`;
          marks.set(key, [...(marks.get(key) ?? []), m[2] ?? '']);
        }
      });
  }
  return marks;
}

function show(d: Diagnostic): string {
  return `${d.range?.file}:${d.range?.start.line}:${d.range?.start.col} ${d.severity}: ${d.summary}`;
}

/** Every mark is produced, and every produced diagnostic is marked (same file, line, severity; summary contains the mark). */
function compare(diags: Diagnostic[], marks: Map<string, string[]>): string[] {
  const problems: string[] = [];
  const unmatched = new Map([...marks].map(([k, v]) => [k, [...v]]));
  for (const d of diags) {
    if (!d.range) {
      problems.push(`diagnostic without a range: ${show(d)}`);
      continue;
    }
    const key = `${d.range.file}:${d.range.start.line} ${d.severity}`;
    const texts = unmatched.get(key) ?? [];
    const i = texts.findIndex((t) => d.summary.includes(t));
    if (i < 0) problems.push(`unexpected ${show(d)}`);
    else texts.splice(i, 1);
  }
  for (const [key, texts] of unmatched) for (const t of texts) problems.push(`missing ${key}: ${t}`);
  return problems;
}

describe('invalid manifest corpus', () => {
  const cases = readdirSync(INVALID).sort();

  it('has at least 60 cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(60);
  });

  it('every fixture produces exactly its marked diagnostics ({line → summary} both ways)', async () => {
    const problems: string[] = [];
    for (const name of cases) {
      const path = join(INVALID, name);
      const files = statSync(path).isDirectory() ? yamlFiles(path) : [path];
      const marks = marksOf(files, INVALID);
      if (marks.size === 0) problems.push(`${name}: has no # ERROR / # WARNING mark`);
      const result = await loadManifests([name], { cwd: INVALID });
      if (!result.diagnostics.some((d) => d.severity === 'error') && !name.includes('warning') && [...marks.keys()].some((k) => k.endsWith('error'))) {
        problems.push(`${name}: no error produced`);
      }
      for (const p of compare(result.diagnostics, marks)) problems.push(`${name}: ${p}`);
      for (const d of result.diagnostics) {
        if (!d.detail) problems.push(`${name}: no detail (how to fix) for ${show(d)}`);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('valid manifests', () => {
  // As examples/.convergeignore says: CI workflows, the Moved document to copy in after a rename, and the
  // environments example with its own Settings document.
  const examples = yamlFiles(join(REPO, 'examples')).filter((f) => !['ci', 'moves', 'environments'].some((d) => f.includes(join(REPO, 'examples', d))));
  const valid = yamlFiles(join(FIXTURES, 'valid'));

  it('examples/environments/ is valid, with no warnings, in each of its environments', async () => {
    for (const environment of ['dev', 'staging', 'prod']) {
      const result = await loadManifests(['examples/environments'], { cwd: REPO, environment });
      expect(result.diagnostics.map(show)).toEqual([]);
      expect(result.desired.settings.environment?.name).toBe(environment);
      expect(result.desired.objects.map((o) => `${o.kind}/${o.name}`).sort()).toEqual(['NoCodeModule/lambda', 'NoCodeWorkspace/lambda', 'NomadAuthMethod/okta']);
    }
  });

  it('every example is valid, together, with no warnings', async () => {
    expect(examples.length).toBeGreaterThanOrEqual(5);
    const result = await loadManifests(
      examples.map((f) => relative(REPO, f)),
      { cwd: REPO },
    );
    expect(result.diagnostics.map(show)).toEqual([]);
    expect(result.desired.objects.map((o) => `${o.kind}/${o.name}`).sort()).toEqual([
      'NoCodeModule/lambda',
      'NoCodeModule/vpc',
      'NoCodeWorkspace/lambda-dev',
      'NoCodeWorkspace/vpc-dev',
      'NomadAclPolicy/deploy',
      'NomadAclPolicy/example-job-variables',
      'NomadAclPolicy/operator',
      'NomadAclPolicy/readonly',
      'NomadAclRole/developer',
      'NomadAuthMethod/github-actions',
      'NomadAuthMethod/okta',
      'NomadBindingRule/deployers',
      'NomadBindingRule/engineers-are-developers',
    ]);
    // examples/tfe/lambda.yaml writes lambda-dev as a NoCodeWorkspaceSet: the same object as a written document.
    expect(result.desired.objects.find((o) => o.name === 'lambda-dev')).toMatchObject({
      origin: { set: 'lambda-envs', item: 'env=dev, runtime=nodejs20.x' },
      spec: { module: 'lambda', variables: [{ key: 'function_name', value: 'hello-dev' }, { key: 'runtime', value: 'nodejs20.x' }] },
    });
    expect(result.desired.settings.spec).toEqual({ tfe: { organization: 'acme' }, state: { backend: 'local', path: '.converge/state.json' } });
    for (const f of examples) expect(readFileSync(f, 'utf8')).toMatch(/^# yaml-language-server: \$schema=(\.\.\/)+schemas\/document\.json\n/);
    expect(readFileSync(join(REPO, 'examples/tfe/vpc.yaml'), 'utf8')).toContain('\n  versionPin: 1.4.0\n');
  });

  it('valid fixtures have no errors, and exactly their marked warnings', async () => {
    const result = await loadManifests(['valid'], { cwd: FIXTURES });
    expect(compare(result.diagnostics, marksOf(valid, FIXTURES))).toEqual([]);
    expect(result.desired.objects.length).toBe(11);
  });
});
