import { beforeEach, describe, expect, it } from 'vitest';
import { doctorCommand } from '../../src/cli/commands/doctor.js';
import { inProcessWith } from '../library/story.js';
import { runCli, sandboxProject } from './run-cli.js';

/*
 * `converge doctor` against the sandbox: it names every missing piece in one run (not just the
 * first), tells token kinds apart through real endpoints only (Nomad: a management-only read;
 * HCP Terraform: GET /account/details and its authenticated-resource), and sends no write. The first case runs
 * the built CLI; the others run the command's own code in-process, with the environment they are about.
 */

describe('converge doctor', () => {
  const project = sandboxProject(['settings.yaml', 'nomad', 'tfe']);

  beforeEach(() => project.sandbox.log.clear());

  const env = (over: Record<string, string | undefined> = {}) => {
    const e = project.env({ NO_COLOR: '1' });
    for (const [k, v] of Object.entries(over)) {
      if (v === undefined) delete e[k];
      else e[k] = v;
    }
    return e;
  };
  const doctor = (e: NodeJS.ProcessEnv) => inProcessWith({ cwd: project.dir, env: e }, (h) => doctorCommand(h, ['.']));

  it('says ready with a management token and a user token, and writes nothing', async () => {
    const r = await runCli(['doctor'], project.dir, env());
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^ok {4}manifests: \d+ documents/m);
    expect(r.stdout).toMatch(/^ok {4}state: local state file/m);
    expect(r.stdout).toMatch(/^ok {4}nomad \(http:\/\/127\.0\.0\.1:\d+, token from NOMAD_TOKEN\): reachable/m);
    expect(r.stdout).toMatch(/^ok {4}tfe \(http:\/\/127\.0\.0\.1:\d+, organization acme, token from TFE_TOKEN\): reachable/m);
    expect(r.stdout).toContain('Ready');
    expect(project.sandbox.log.writes()).toEqual([]);
    expect(project.sandbox.log.size).toBeGreaterThan(0);
    expect(r.stdout + r.stderr).not.toContain(project.sandbox.env.NOMAD_TOKEN);
    expect(r.stdout + r.stderr).not.toContain(project.sandbox.env.TFE_TOKEN);
  });

  it('a team token is fine for no-code writes', async () => {
    const r = await doctor(env({ TFE_TOKEN: project.sandbox.tfe.tokens.team }));
    expect(r.code, r.stdout + r.stderr).toBe(0);
  });

  it('reports a non-management Nomad token AND an organization token in the same run', async () => {
    const r = await doctor(env({ NOMAD_TOKEN: project.sandbox.nomad.clientToken, TFE_TOKEN: project.sandbox.tfe.tokens.organization }));
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^FAIL {2}nomad .*not a management token/m);
    expect(r.stdout).toMatch(/^FAIL {2}tfe .*organization token/m);
    expect(r.stdout).toContain('Nothing was written');
    expect(project.sandbox.log.writes()).toEqual([]);
    expect(r.stdout + r.stderr).not.toContain(project.sandbox.nomad.clientToken);
    expect(r.stdout + r.stderr).not.toContain(project.sandbox.tfe.tokens.organization);
  });

  it('reports missing tokens with where to set them, before sending anything', async () => {
    const r = await doctor(env({ NOMAD_TOKEN: undefined, TFE_TOKEN: undefined }));
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^FAIL {2}nomad \(.*token missing\): NOMAD_TOKEN is not set\n {6}export NOMAD_TOKEN=/m);
    expect(r.stdout).toMatch(/^FAIL {2}tfe \(.*token missing\): no HCP Terraform token for 127\.0\.0\.1:\d+\n {6}export TFE_TOKEN=.*TF_TOKEN_127_0_0_1/m);
    expect(project.sandbox.log.size).toBe(0);
  });

  it('finds the token in a Terraform CLI config named by TF_CLI_CONFIG_FILE', async () => {
    const { writeFile } = await import('node:fs/promises');
    const host = new URL(project.sandbox.env.TFE_ADDRESS ?? '').host;
    const rc = `${project.dir}/ci.tfrc`;
    await writeFile(rc, `credentials "${host}" {\n  token = "${project.sandbox.tfe.tokens.user}"\n}\n`);
    const r = await doctor(env({ TFE_TOKEN: undefined, TF_CLI_CONFIG_FILE: rc }));
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain(`token from ${rc}`);
  });

  it('reports a Nomad it cannot reach', { timeout: 60_000 }, async () => {
    const r = await doctor(env({ NOMAD_ADDR: 'http://127.0.0.1:9' }));
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^FAIL {2}nomad \(http:\/\/127\.0\.0\.1:9, .*cannot reach Nomad/m);
    expect(r.stdout).toMatch(/^ok {4}tfe /m);
  });
});
