import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { parseAllDocuments } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatManifest } from '../../src/manifest/format.js';
import { fmtCommand } from '../../src/cli/commands/fmt.js';
import { inProcessWith } from '../library/story.js';
import { assertBuilt, cleanEnv, REPO, runCli } from '../cli/run-cli.js';

/*
 * `converge fmt`: canonical key order (kind, name, metadata, …, spec; spec keys in schema order), 2-space
 * indentation, one `---` between documents, comments kept; idempotent; never touches what it cannot parse;
 * `--check` lists and exits 1 without writing. examples/ stays formatted. The command's own code runs
 * in-process; the check of examples/ runs the built CLI, as CI does.
 */

const MESSY = `# the Okta method
spec:
    # the method's settings
    maxTokenTtl: 1h
    type: OIDC
    # tokens of this method stay in this region
    tokenLocality: local
    config:
        oidcClientId: abc # inline comment
        oidcDiscoveryUrl: https://acme.okta.com
        oidcClientSecret: { fromEnv: OKTA_CLIENT_SECRET }
        boundAudiences: [abc]
        allowedRedirectUris: [https://nomad/ui]
name: okta
kind: NomadAuthMethod
---
---
name: readonly
kind: NomadAclPolicy
spec:
  rules: |
    namespace "default" { policy = "read" }
`;

const formatted = (text: string): string => {
  const r = formatManifest(text, 'm.yaml');
  if (r.status !== 'formatted') throw new Error(`not formatted: ${r.status}`);
  return r.text;
};
const data = (text: string): unknown[] => parseAllDocuments(text).map((d) => (Array.isArray(d) ? d : d.toJS()) as unknown);

describe('formatManifest', () => {
  it('orders keys canonically, indents by 2, keeps every comment and the data', () => {
    const out = formatted(MESSY);
    // The comment above the first key heads the document; kind and name come first.
    expect(out.split('\n').slice(0, 5)).toEqual(['# the Okta method', '', 'kind: NomadAuthMethod', 'name: okta', 'spec:']);
    // spec keys in schema order: type before tokenLocality before maxTokenTtl; comments move with their key.
    const spec = out.slice(out.indexOf('spec:'));
    expect(spec.indexOf('  type: OIDC')).toBeLessThan(spec.indexOf('  tokenLocality: local'));
    expect(out).toContain('spec:\n  # the method\'s settings\n  type: OIDC\n  # tokens of this method stay in this region\n  tokenLocality: local\n  maxTokenTtl: 1h');
    expect(out).toContain('oidcClientId: abc # inline comment');
    expect(out).toContain('\n    oidcDiscoveryUrl: https://acme.okta.com\n    oidcClientId: abc');
    // One separator between the two documents, none before the first; the empty document is gone.
    expect(out.match(/^---$/gm)).toHaveLength(1);
    expect(out).toContain('---\nkind: NomadAclPolicy\nname: readonly\nspec:\n');
    expect(data(out)).toEqual(data(MESSY).filter((d) => d !== null));
  });

  it('is idempotent: fmt of fmt output changes nothing', () => {
    const once = formatted(MESSY);
    expect(formatted(once)).toBe(once);
  });

  it('property: for documents with keys in any order, fmt keeps the data and a second fmt changes nothing', () => {
    const specKeys = ['type', 'tokenLocality', 'maxTokenTtl', 'default', 'tokenNameFormat', 'unknownKey'];
    const doc = fc.record({
      name: fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/),
      spec: fc.dictionary(fc.constantFrom(...specKeys), fc.oneof(fc.string({ maxLength: 12 }), fc.integer(), fc.boolean(), fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }))),
      topFirst: fc.boolean(),
      comment: fc.option(fc.stringMatching(/^[a-z ]{0,20}$/), { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.array(doc, { minLength: 1, maxLength: 3 }), (docs) => {
        const text = docs
          .map((d) => {
            const spec = `spec:\n${Object.entries(d.spec).map(([k, v]) => `  ${k}: ${JSON.stringify(v)}${d.comment !== undefined ? ` # ${d.comment}` : ''}`).join('\n') || '  {}'}`;
            const head = `kind: NomadAuthMethod\nname: ${d.name}`;
            return (d.topFirst ? [spec, head] : [head, spec]).join('\n') + '\n';
          })
          .join('---\n');
        const once = formatted(text);
        expect(formatted(once)).toBe(once);
        expect(data(once)).toEqual(data(text));
      }),
      { numRuns: 60, seed: 4242 },
    );
  });
});

describe('converge fmt', () => {
  let dir = '';
  const env = cleanEnv(REPO);
  const fmt = (paths: string[], opts: { check?: boolean; diff?: boolean } = {}) => inProcessWith({ cwd: dir, env }, (h) => fmtCommand(h, paths, opts));
  beforeAll(async () => {
    assertBuilt();
    dir = await mkdtemp(join(tmpdir(), 'converge-fmt-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('--check lists the files that would change and exits 1 without writing; fmt writes them; then --check passes', async () => {
    await writeFile(join(dir, 'messy.yaml'), MESSY);
    const check = await fmt(['.'], { check: true });
    expect(check.code).toBe(1);
    expect(check.stdout).toBe('messy.yaml\n');
    expect(await readFile(join(dir, 'messy.yaml'), 'utf8')).toBe(MESSY);
    const diff = await fmt(['.'], { check: true, diff: true });
    expect(diff.stdout).toContain('-name: okta');
    const write = await fmt(['.']);
    expect(write.code).toBe(0);
    expect(await readFile(join(dir, 'messy.yaml'), 'utf8')).toBe(formatted(MESSY));
    expect((await fmt(['.'], { check: true })).code).toBe(0);
  });

  it('never reformats a file it cannot parse: the error names file:line:col, the file is unchanged', async () => {
    const broken = 'kind: NomadAclPolicy\nname: x\nspec:\n  rules: "unclosed\n  description: y\n';
    await writeFile(join(dir, 'broken.yaml'), broken);
    const r = await fmt(['broken.yaml']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/broken\.yaml:\d+:\d+|broken\.yaml line \d+, column \d+|on broken\.yaml/);
    expect(r.stderr).toContain('not formatted');
    expect(await readFile(join(dir, 'broken.yaml'), 'utf8')).toBe(broken);
    await rm(join(dir, 'broken.yaml'));
  });

  it('examples/ is formatted', async () => {
    const r = await runCli(['fmt', '--check', 'examples'], REPO, env);
    expect(r.stdout, r.stderr).toBe('');
    expect(r.code).toBe(0);
  });
});
