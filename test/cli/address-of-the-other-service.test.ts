import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { assertBuilt, cleanEnv, EXAMPLE_SECRETS, runCli, tempProject } from './run-cli.js';

/*
 * NOMAD_ADDR set to the HCP Terraform address (or TFE_ADDRESS to Nomad's): HCP Terraform answers
 * Nomad's paths with JSON:API 404s, which read as "no state yet" (`state list`: "No objects" while the
 * real state held objects) and `doctor` said ready. Each client now identifies its service before
 * trusting any answer, so every command says the address is the other service and sends nothing else.
 */

describe('an address that points at the other service', () => {
  let sandbox: Sandbox;
  let project: { dir: string; cleanup: () => Promise<void> };

  beforeAll(async () => {
    assertBuilt();
    sandbox = await startSandbox({ stepDelayMs: 5 });
    project = await tempProject(['nomad', 'tfe']);
    await writeFile(join(project.dir, 'settings.yaml'), 'kind: Settings\nname: settings\nspec:\n  tfe: { organization: acme }\n  state:\n    backend: nomad\n');
    // A real state, with objects in it, at the right address.
    const r = await runCli(['apply', '--auto-approve', 'settings.yaml', 'nomad'], project.dir, cleanEnv(project.dir, { ...sandbox.env, ...EXAMPLE_SECRETS }));
    expect(r.code, r.stdout + r.stderr).toBe(0);
  });
  afterAll(async () => {
    await sandbox?.stop();
    await project?.cleanup();
  });
  beforeEach(() => sandbox.log.clear());

  const nomadAtTfe = () => cleanEnv(project.dir, { ...sandbox.env, ...EXAMPLE_SECRETS, NO_COLOR: '1', NOMAD_ADDR: sandbox.tfe.url });
  const notNomad = (text: string) => {
    expect(text).toContain(`${sandbox.tfe.url} is not the Nomad API: GET /v1/regions answered HTTP 404`);
    expect(text).toContain('it answers as HCP Terraform');
    expect(text).toContain('Is NOMAD_ADDR right?');
  };

  it('state list is an error, not "No objects"', async () => {
    const r = await runCli(['state', 'list'], project.dir, nomadAtTfe());
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).not.toContain('No objects');
    notNomad(r.stderr);
    expect(sandbox.log.entries().filter((e) => e.service === 'tfe').map((e) => `${e.method} ${e.path}`)).toEqual(['GET /v1/regions']);
  });

  it('doctor fails the state and the Nomad lines', async () => {
    const r = await runCli(['doctor', 'settings.yaml', 'nomad'], project.dir, nomadAtTfe());
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toMatch(/^FAIL {2}state: .*is not the Nomad API/m);
    expect(r.stdout).toMatch(/^FAIL {2}nomad .*is not the Nomad API/m);
    expect(r.stdout).not.toContain('Ready');
    expect(sandbox.log.writes()).toEqual([]);
  });

  it('plan and apply stop before reading anything else', async () => {
    for (const args of [['plan', 'settings.yaml', 'nomad'], ['apply', '--auto-approve', 'settings.yaml', 'nomad']]) {
      const r = await runCli(args, project.dir, nomadAtTfe());
      expect(r.code, r.stdout + r.stderr).toBe(1);
      notNomad(r.stderr);
    }
    expect(sandbox.log.writes()).toEqual([]);
  });

  it('TFE_ADDRESS at Nomad is not HCP Terraform', async () => {
    const env = cleanEnv(project.dir, { ...sandbox.env, ...EXAMPLE_SECRETS, NO_COLOR: '1', TFE_ADDRESS: sandbox.nomad.url });
    const r = await runCli(['plan', 'settings.yaml', 'tfe'], project.dir, env);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stderr).toContain(`${sandbox.nomad.url} is not the HCP Terraform API: GET /api/v2/ping answered HTTP 404 without the TFP-API-Version header`);
    expect(r.stderr).toContain('Is TFE_ADDRESS right?');
    expect(sandbox.log.writes()).toEqual([]);
  });
});
