import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, runCli } from './run-cli.js';

/*
 * `converge validate` on NomadAclPolicy rules, through the built CLI, held to what Nomad's acl.Parse does:
 * - it refused `policy = ""` beside capabilities and HCL 1's escapes (\x72, \162, \u0072, \a ...), both of
 *   which Nomad accepts;
 * - it checked JSON rules only for JSON syntax, so `{}`, unknown keys and bad policy values went through
 *   to a 400 at apply;
 * - a policy nested 3 000 deep (15 KB) overflowed the stack of the HCL reader
 *   ("Maximum call stack size exceeded (unexpected)").
 */

let dir = '';
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = '';
});
beforeAll(() => assertBuilt());

async function validatePolicy(rulesYaml: string): Promise<{ code: number; stdout: string; stderr: string }> {
  dir = await mkdtemp(join(tmpdir(), 'converge-policy-'));
  await writeFile(join(dir, 'policy.yaml'), `kind: NomadAclPolicy\nname: ops\nspec:\n  rules: ${rulesYaml}\n`);
  return runCli(['validate', '--no-color', 'policy.yaml'], dir, cleanEnv(dir));
}

describe('converge validate: ACL policy rules as Nomad reads them', () => {
  it('accepts policy = "" with capabilities, and HCL 1 escapes', async () => {
    const r = await validatePolicy(
      [
        '|',
        '    namespace "default" {',
        '      policy       = ""',
        '      capabilities = ["read-job"]',
        '    }',
        '    node { policy = "\\x72ead" }',
        '    agent { policy = "\\162ead" }',
        '    operator {',
        '      policy       = "\\u0072ead"',
        '      capabilities = ["snapshot-save"]',
        '    }',
        '    node_pool "prod" { policy = "" }',
        '    host_volume "certs" { policy = "" }',
        '    namespace "apps" { variables { path "a\\ab\\fc" { capabilities = ["read"] } } }',
      ].join('\n'),
    );
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('Success!');
    expect(r.code).toBe(0);
  });

  it('checks JSON rules like HCL: {} and a bad policy are errors at their place in the file', async () => {
    const empty = await validatePolicy("'{}'");
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain('on policy.yaml line 4, column 11:');
    expect(empty.stderr).toContain('rules: The rules hold no policy block');

    const bad = await validatePolicy(['|', '    {', '      "namespace": {"default": {"policy": "writ"}},', '      "bogus": {"policy": "read"}', '    }'].join('\n'));
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('on policy.yaml line 6, column 43:');
    expect(bad.stderr).toContain('rules: Unknown policy "writ" in the namespace block (did you mean "write"?)');
    expect(bad.stderr).toContain('on policy.yaml line 7, column 7:');
    expect(bad.stderr).toContain('rules: Unknown block "bogus"');
  });

  it('a policy nested 3 000 deep is a positioned error, not a stack overflow', async () => {
    const deep = `'namespace "default" { ${'a { '.repeat(3000)}${'} '.repeat(3000)}}'`;
    const r = await validatePolicy(deep);
    expect(r.stderr).not.toContain('Maximum call stack');
    expect(r.stderr).toContain('rules: Nested more than 100 levels deep');
    expect(r.stderr).toContain('on policy.yaml line 4, column 431:');
    expect(r.code).toBe(1);
  });
});
