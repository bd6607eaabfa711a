import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { doctorCommand } from '../../src/cli/commands/doctor.js';
import { stateList } from '../../src/cli/commands/state.js';
import { applying, inProcessWith, planning, type CommandStep } from '../library/story.js';
import { sandboxProject } from './run-cli.js';

/*
 * NOMAD_ADDR set to the HCP Terraform address (or TFE_ADDRESS to Nomad's): HCP Terraform answers
 * Nomad's paths with JSON:API 404s, which read as "no state yet" (`state list`: "No objects" while the
 * real state held objects) and `doctor` said ready. Each client now identifies its service before
 * trusting any answer, so every command says the address is the other service and sends nothing else. The
 * commands run in-process against the shared sandbox.
 */

describe('an address that points at the other service', () => {
  const project = sandboxProject(['nomad', 'tfe']);
  const run = (step: CommandStep, env: NodeJS.ProcessEnv) => inProcessWith({ cwd: project.dir, env }, step);

  beforeAll(async () => {
    await writeFile(join(project.dir, 'settings.yaml'), 'kind: Settings\nname: settings\nspec:\n  tfe: { organization: acme }\n  state:\n    backend: nomad\n');
    // A real state, with objects in it, at the right address.
    const r = await run(applying({}, ['settings.yaml', 'nomad']), project.env());
    expect(r.code, r.stdout + r.stderr).toBe(0);
  });
  beforeEach(() => project.sandbox.log.clear());

  const nomadAtTfe = () => project.env({ NO_COLOR: '1', NOMAD_ADDR: project.sandbox.tfe.url });
  const notNomad = (text: string) => {
    expect(text).toContain(`${project.sandbox.tfe.url} is not the Nomad API: GET /v1/regions answered HTTP 404`);
    expect(text).toContain('it answers as HCP Terraform');
    expect(text).toContain('Is NOMAD_ADDR right?');
  };

  it('state list is an error, not "No objects"', async () => {
    const r = await run((h) => stateList(h, ['.']), nomadAtTfe());
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).not.toContain('No objects');
    notNomad(r.stderr);
    expect(project.sandbox.log.entries().filter((e) => e.service === 'tfe').map((e) => `${e.method} ${e.path}`)).toEqual(['GET /v1/regions']);
  });

  it('doctor fails the state and the Nomad lines', async () => {
    const r = await run((h) => doctorCommand(h, ['settings.yaml', 'nomad']), nomadAtTfe());
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toMatch(/^FAIL {2}state: .*is not the Nomad API/m);
    expect(r.stdout).toMatch(/^FAIL {2}nomad .*is not the Nomad API/m);
    expect(r.stdout).not.toContain('Ready');
    expect(project.sandbox.log.writes()).toEqual([]);
  });

  it('plan and apply stop before reading anything else', async () => {
    for (const step of [planning({}, ['settings.yaml', 'nomad']), applying({}, ['settings.yaml', 'nomad'])]) {
      const r = await run(step, nomadAtTfe());
      expect(r.code, r.stdout + r.stderr).toBe(1);
      notNomad(r.stderr);
    }
    expect(project.sandbox.log.writes()).toEqual([]);
  });

  it('TFE_ADDRESS at Nomad is not HCP Terraform', async () => {
    const env = project.env({ NO_COLOR: '1', TFE_ADDRESS: project.sandbox.nomad.url });
    const r = await run(planning({}, ['settings.yaml', 'tfe']), env);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stderr).toContain(`${project.sandbox.nomad.url} is not the HCP Terraform API: GET /api/v2/ping answered HTTP 404 without the TFP-API-Version header`);
    expect(r.stderr).toContain('Is TFE_ADDRESS right?');
    expect(project.sandbox.log.writes()).toEqual([]);
  });
});
