import { createServer, type Server } from 'node:net';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { beforeEach, describe, expect, it } from 'vitest';
import { applyCommand } from '../../src/cli/commands/apply.js';
import { doctorCommand } from '../../src/cli/commands/doctor.js';
import { driftCommand } from '../../src/cli/commands/drift.js';
import { stateUnlock } from '../../src/cli/commands/state.js';
import { applying, inProcessWith, planning, type CommandStep } from '../library/story.js';
import { runCli, sandboxProject } from './run-cli.js';

/*
 * The usual mistakes of a first week, each with an answer that says what happened and what to do:
 * an unknown --region (was six retries of "No path to region" and exit 0), a saved plan given as a
 * manifest, `show` of a missing file (suggested `apply --plan`), a busy sandbox port, a bad Nomad token
 * told apart from a valid one without management rights, and `state unlock` of a released lock
 * (described as held by a process that had exited). The commands run in-process against the shared sandbox;
 * `show` and `sandbox` run the built CLI, as a person types them.
 */

describe('day-two mistakes', () => {
  const project = sandboxProject(['settings.yaml', 'nomad']);
  const env = (over: Record<string, string> = {}) => project.env({ NO_COLOR: '1', ...over });
  const run = (step: CommandStep, over: Record<string, string> = {}) => inProcessWith({ cwd: project.dir, env: env(over) }, step);

  beforeEach(() => project.sandbox.log.clear());

  it('--region with a name the cluster does not know is an error naming the known regions, without retries', async () => {
    const r = await run((h) => driftCommand(h, ['settings.yaml', 'nomad'], { region: 'nowhere' }));
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stderr).toContain('Nomad knows no region "nowhere" (--region); its regions: europe, global');
    expect(r.stderr).not.toMatch(/retry/i);
    expect(project.sandbox.log.entries({ service: 'nomad' }).filter((e) => e.query.includes('region=nowhere'))).toEqual([]);
  });

  it('a known --region still works', async () => {
    const r = await run((h) => driftCommand(h, ['settings.yaml', 'nomad'], { region: 'europe' }));
    expect([0, 2]).toContain(r.code);
  });

  it('apply plan.json says it is a saved plan and suggests --plan', async () => {
    const planned = await run(planning({ out: 'plan.json' }, ['settings.yaml', 'nomad']));
    expect(planned.code, planned.stdout + planned.stderr).toBe(0);
    const r = await run((h) => applyCommand(h, ['plan.json'], {}));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('plan.json is a saved plan, not a manifest');
    expect(r.stderr).toContain('converge apply --plan plan.json');
    expect(r.stderr).not.toContain('unknown field');
  });

  it('show of a missing file says it does not exist and how to make one, not apply --plan', async () => {
    const r = await runCli(['show', 'nothere.json'], project.dir, env());
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('nothere.json: the file does not exist');
    expect(r.stderr).toContain('converge show FILE');
    expect(r.stderr).not.toContain('apply --plan');
  });

  it('sandbox on a busy port suggests --port 0', async () => {
    const busy: Server = createServer();
    await new Promise<void>((res) => busy.listen(0, '127.0.0.1', res));
    const port = (busy.address() as AddressInfo).port;
    try {
      const r = await runCli(['sandbox', '--port', String(port)], project.dir, env());
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
      expect(r.stderr).toContain('--port 0');
    } finally {
      await new Promise<void>((res) => busy.close(() => res()));
    }
  });

  it('doctor tells a token Nomad does not know from a valid one that is not a management token', async () => {
    const bad = await run((h) => doctorCommand(h, ['settings.yaml', 'nomad']), { NOMAD_TOKEN: 'not-a-real-token' });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/^FAIL {2}nomad .*Nomad does not know NOMAD_TOKEN/m);
    expect(bad.stdout).not.toContain('not a management token');
    const weak = await run((h) => doctorCommand(h, ['settings.yaml', 'nomad']), { NOMAD_TOKEN: project.sandbox.nomad.clientToken });
    expect(weak.code).toBe(1);
    expect(weak.stdout).toMatch(/^FAIL {2}nomad .*valid token but not a management token/m);
    expect(weak.stdout).not.toContain('does not know');
  });

  it('state unlock of a released lock does not call it held', async () => {
    await writeFile(join(project.dir, 'nomad-state.yaml'), 'kind: Settings\nname: settings\nspec:\n  state:\n    backend: nomad\n');
    const applied = await run(applying({ pollInterval: '50ms' }, ['nomad-state.yaml', 'nomad']));
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    const r = await run((h) => stateUnlock(h, 'some-old-id', ['nomad-state.yaml']));
    expect(r.code).toBe(1);
    expect(r.stderr).not.toMatch(/held by/);
    expect(r.stderr).toContain('last taken by');
    expect(r.stderr).toContain('Nomad shows this token no lock on it now');
  });
});
