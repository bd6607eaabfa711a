import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, EXAMPLE_SECRETS, runCli, tempProject } from './run-cli.js';

/*
 * NomadLoginTest documents run offline in validate and plan. A change that breaks single sign-on (a
 * selector that no longer matches the engineering group) fails both, at the expectation's line, before
 * anything is sent; the examples' own login tests hold.
 */
let dir = '';
let cleanup: () => Promise<void> = async () => {};
// No Nomad address: had plan tried to reach Nomad, it would fail with a connection error instead.
const env = () => cleanEnv(dir, { ...EXAMPLE_SECRETS });

beforeAll(async () => {
  assertBuilt();
  ({ dir, cleanup } = await tempProject(['nomad']));
});
afterAll(async () => cleanup());

describe('login tests in validate and plan', () => {
  it('the examples\' login tests hold', async () => {
    const r = await runCli(['validate', 'nomad'], dir, env());
    expect(r.code, r.stderr).toBe(0);
  });

  it('a selector that stops matching fails validate and plan at the expectation, before anything is sent', async () => {
    const file = join(dir, 'nomad', 'binding-rules.yaml');
    await writeFile(file, (await readFile(file, 'utf8')).replace('"engineering" in list.groups', '"engineers" in list.groups'));
    for (const command of ['validate', 'plan']) {
      const r = await runCli([command, 'nomad'], dir, env());
      expect(r.code, command).toBe(1);
      expect(r.stderr, command).toContain('login test engineers-can-deploy-anywhere fails: expected roles developer, but Nomad refuses it: no role or policy bindings matched');
      expect(r.stderr, command).toMatch(/on nomad\/login-tests\.yaml line \d+, column \d+:\n.*roles: \[developer\]/);
      expect(r.stderr, command).toContain('expected submit-job in namespace default');
      expect(r.stderr, command).not.toMatch(/NOMAD_ADDR|connect|ECONNREFUSED/);
    }
  });

  it('a capability that must be denied but is granted fails at its line', async () => {
    const file = join(dir, 'nomad', 'acl-policies.yaml');
    await writeFile(file, (await readFile(file, 'utf8')).replace('capabilities = ["submit-job", "dispatch-job", "read-job", "scale-job"]', 'capabilities = ["submit-job", "alloc-exec"]'));
    const r = await runCli(['validate', 'nomad'], dir, env());
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('login test main-branch-deploys-only-default fails: expected no alloc-exec in namespace default, but the token has it');
    expect(r.stderr).toMatch(/on nomad\/login-tests\.yaml line \d+, column \d+:\n.*namespace: default, capability: alloc-exec/);
  });
});
