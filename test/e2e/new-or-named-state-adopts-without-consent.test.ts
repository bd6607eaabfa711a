import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applying, inProcess, listing, planning, storyPerTest, type CommandStep, type Story } from '../library/story.js';
import type { CliResult } from './harness.js';
import { jwtMethod } from './fixtures-first-use.js';
import { vpcModule } from './manifests.js';

/*
 * A new state adopted what another state owned without a word: `cd infra/m/nomad && converge plan` (no
 * Settings document there) started an empty local state that planned to record every live object as its
 * own, and `apply --auto-approve` did. A named state B whose manifests held state A's no-code module and auth
 * method recorded them too ("Recorded 2 existing objects as owned (nothing was sent)") and would later delete
 * them. A new or named state now adopts only with consent (--adopt-all, --adopt Kind/name, import, or a yes
 * on a terminal); the plan says so first and apply refuses otherwise (decisions.md §27). Each step runs the
 * command's own code through the CLI's Host in this process, in the directory it names, output and exit code
 * collected.
 */

const workspace = storyPerTest();
const inDir = (ws: Story, dir: string, step: CommandStep): Promise<CliResult> => inProcess({ cwd: join(ws.dir, dir), env: ws.env }, step);

describe('a new or named state adopts nothing without consent (commands in-process ↔ simulators)', () => {
  it('a new state in a directory without the Settings document: the plan warns first, apply refuses and sends nothing, --adopt-all consents', async () => {
    const ws = await workspace({ realTime: true });
    await ws.write('infra/m/settings.yaml', 'kind: Settings\nname: settings\nspec:\n  state: { backend: local, path: .converge/state.json }\n');
    await ws.write('infra/m/nomad/am.yaml', jwtMethod('sso-a'));
    const first = await inDir(ws, '.', applying({}, ['infra/m']));
    expect(first.code, first.stderr).toBe(0);
    ws.sandbox.log.clear();

    const dir = join('infra', 'm', 'nomad');
    const newState = join(ws.dir, dir, '.converge', 'state.json');
    const plan = await inDir(ws, dir, planning());
    expect(plan.code, plan.stderr).toBe(0);
    const lines = plan.stdout.split('\n');
    expect(lines[0]).toBe(`State: local state file ${newState} (new: it owns nothing yet).`);
    expect(lines[2]).toContain(`WARNING: this state (local state file ${newState}) is new: it owns nothing yet, and the plan would record 1 existing object as its own: NomadAuthMethod/sso-a.`);
    expect(plan.stdout).toContain('--adopt-all');

    const apply = await inDir(ws, dir, applying());
    expect(apply.code, apply.stdout + apply.stderr).toBe(1);
    expect(apply.stderr).toContain('refusing to record 1 existing object as owned without consent');
    expect(apply.stdout).not.toContain('Recorded');
    await expect(access(newState)).rejects.toThrow();

    const saved = await inDir(ws, dir, planning({ out: 'plan.json' }));
    expect(saved.code, saved.stderr).toBe(0);
    const fromSaved = await inDir(ws, dir, applying({ autoApprove: false, plan: 'plan.json' }));
    expect(fromSaved.code).toBe(1);
    expect(fromSaved.stderr).toContain('without consent');
    expect(ws.sandbox.log.writes()).toEqual([]);

    const consented = await inDir(ws, dir, applying({ adoptAll: true }));
    expect(consented.code, consented.stderr).toBe(0);
    expect(consented.stdout).toContain('Recorded 1 existing object as owned (nothing was sent): NomadAuthMethod/sso-a.');
    expect(ws.sandbox.log.writes()).toEqual([]);
  });

  it("a named state B does not record state A's no-code module and auth method as its own without consent", async () => {
    const ws = await workspace({ realTime: true });
    const settings = (name: string, path: string) => `kind: Settings\nname: settings\nspec:\n  tfe: { organization: acme }\n  state: { backend: local, path: ${path}, name: ${name} }\n`;
    await ws.write('a/settings.yaml', settings('team-a', '.converge/a.json'));
    await ws.write('a/objects.yaml', `${jwtMethod('sso-a')}---\n${vpcModule()}`);
    await ws.write('b/settings.yaml', settings('team-b', '.converge/b.json'));
    await ws.write('b/own.yaml', jwtMethod('b-only'));
    expect((await inDir(ws, '.', applying({}, ['a']))).code).toBe(0);
    expect((await inDir(ws, '.', applying({}, ['b']))).code).toBe(0);
    ws.sandbox.log.clear();

    await ws.write('b/shared.yaml', `${jwtMethod('sso-a')}---\n${vpcModule()}`);
    const plan = await inDir(ws, '.', planning({}, ['b']));
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('is named, and the plan would record 2 existing objects as its own: NomadAuthMethod/sso-a, NoCodeModule/vpc.');
    const apply = await inDir(ws, '.', applying({}, ['b']));
    expect(apply.code, apply.stdout + apply.stderr).toBe(1);
    expect(apply.stdout).not.toContain('Recorded 2 existing objects as owned');
    expect(apply.stderr).toContain('refusing to record 2 existing objects as owned without consent');
    const list = await inDir(ws, '.', listing(['b']));
    expect(list.stdout).toContain('NomadAuthMethod/b-only');
    expect(list.stdout).not.toContain('sso-a');
    expect(ws.sandbox.log.writes()).toEqual([]);
  });
});
