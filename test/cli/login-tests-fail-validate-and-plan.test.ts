import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateCommand } from '../../src/cli/commands/validate.js';
import { inProcessWith, planning, type CommandStep } from '../library/story.js';
import { cleanEnv, EXAMPLE_SECRETS, tempProject } from './run-cli.js';

/*
 * NomadLoginTest documents run offline in validate and plan. A change that breaks single sign-on (a
 * selector that no longer matches the engineering group) fails both, at the expectation's line, before
 * anything is sent; the examples' own login tests hold. The commands run in-process.
 */
let dir = '';
let cleanup: () => Promise<void> = async () => {};
// No Nomad address: had plan tried to reach Nomad, it would fail with a connection error instead.
const env = () => cleanEnv(dir, { ...EXAMPLE_SECRETS });
const run = (step: CommandStep) => inProcessWith({ cwd: dir, env: env() }, step);
const validating: CommandStep = (h) => validateCommand(h, ['nomad'], {});

beforeAll(async () => {
  ({ dir, cleanup } = await tempProject(['nomad']));
});
afterAll(async () => cleanup());

describe('login tests in validate and plan', () => {
  it('the examples\' login tests hold', async () => {
    const r = await run(validating);
    expect(r.code, r.stderr).toBe(0);
  });

  it('a selector that stops matching fails validate and plan at the expectation, before anything is sent', async () => {
    const file = join(dir, 'nomad', 'binding-rules.yaml');
    await writeFile(file, (await readFile(file, 'utf8')).replace('"engineering" in list.groups', '"engineers" in list.groups'));
    const steps: [string, CommandStep][] = [
      ['validate', validating],
      ['plan', planning({}, ['nomad'])],
    ];
    for (const [command, step] of steps) {
      const r = await run(step);
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
    const r = await run(validating);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('login test main-branch-deploys-only-default fails: expected no alloc-exec in namespace default, but the token has it');
    expect(r.stderr).toMatch(/on nomad\/login-tests\.yaml line \d+, column \d+:\n.*namespace: default, capability: alloc-exec/);
  });
});
