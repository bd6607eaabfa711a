import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applying, planning, showing, storyPerTest, type CommandStep, type Story } from '../library/story.js';
import { actions, jwtMethod } from './fixtures-first-use.js';
import { vpcModule } from './manifests.js';

/*
 * The state recorded each object's manifest file relative to the working directory of the run that
 * recorded it. CI applied `infra/m` from the repository root; a developer's `cd infra && converge apply
 * m/tfe m/settings.yaml` could not find the recorded `infra/m/nomad/am.yaml` from `infra/`, counted the
 * object as gone and deleted NomadAuthMethod/sso-a; the reverse rewrote the paths and the next CI apply
 * deleted two more. Paths are now relative to the Settings document's directory, which does not move with
 * the working directory, and a path that cannot be resolved never plans a delete (decisions.md §27).
 * Each command runs its own code in this process (its text and exit code) from the working directory given,
 * against the simulators on their ManualClock; the state is in Nomad Variables, shared by both directories as in CI.
 */

const workspace = storyPerTest();

const SETTINGS = `kind: Settings
name: settings
spec:
  tfe: { organization: acme }
  state: { backend: nomad, path: converge/state }
`;

async function givenRepository(): Promise<Story> {
  const ws = await workspace();
  await ws.write('infra/m/settings.yaml', SETTINGS);
  await ws.write('infra/m/nomad/am.yaml', `${jwtMethod('sso-a')}---\n${jwtMethod('sso-b')}`);
  await ws.write('infra/m/nomad/ci.yaml', jwtMethod('ci'));
  await ws.write('infra/m/tfe/vpc.yaml', vpcModule());
  return ws;
}

const inDir = (ws: Story, dir: string, step: CommandStep) => ws.run(step, { cwd: dir });

/** Requests that deleted or changed a managed object (the state's own variables left out). */
function objectWrites(ws: Story): string[] {
  return ws.sandbox.log
    .writes()
    .filter((e) => !e.path.startsWith('/v1/var'))
    .map((e) => `${e.method} ${e.path}`);
}

describe('a scoped apply from another working directory deletes nothing whose manifest exists (commands in-process ↔ simulator)', () => {
  it('apply infra/m from the repository root, then `cd infra && converge apply m/tfe m/settings.yaml`: nothing deleted, the rest said once as left alone', async () => {
    const ws = await givenRepository();
    const first = await ws.run(applying({}, ['infra/m']));
    expect(first.code, first.stderr).toBe(0);
    ws.sandbox.log.clear();

    const plan = await inDir(ws, 'infra', planning({ json: true }, ['m/tfe', 'm/settings.yaml']));
    expect(plan.code, plan.stderr).toBe(0);
    expect(actions(plan.stdout)).toEqual([]);
    const text = await inDir(ws, 'infra', planning({}, ['m/tfe', 'm/settings.yaml']));
    const leftAlone = `3 owned objects left alone, from manifest files that exist but were not given (${join('nomad', 'am.yaml')}, ${join('nomad', 'ci.yaml')})`;
    expect(text.stdout.split(leftAlone), text.stdout).toHaveLength(2);
    const scoped = await inDir(ws, 'infra', applying({}, ['m/tfe', 'm/settings.yaml']));
    expect(scoped.code, scoped.stderr).toBe(0);
    expect(objectWrites(ws)).toEqual([]);
    const shown = await ws.run(showing('NomadAuthMethod/sso-a', ['infra/m']));
    expect(JSON.parse(shown.stdout)).toMatchObject({ source: join('nomad', 'am.yaml'), rootRelative: true });

    // The next CI apply from the root still has nothing to do.
    const again = await ws.run(planning({ json: true }, ['infra/m']));
    expect(actions(again.stdout)).toEqual([]);
  });

  it('the reverse: apply m from infra/, then from the root `apply infra/m/tfe infra/m/settings.yaml` and the next `apply infra/m` delete nothing', async () => {
    const ws = await givenRepository();
    const first = await inDir(ws, 'infra', applying({}, ['m']));
    expect(first.code, first.stderr).toBe(0);
    ws.sandbox.log.clear();

    const scoped = await ws.run(applying({}, [join('infra', 'm', 'tfe'), join('infra', 'm', 'settings.yaml')]));
    expect(scoped.code, scoped.stderr).toBe(0);
    const ci = await ws.run(applying({}, ['infra/m']));
    expect(ci.code, ci.stderr).toBe(0);
    expect(ci.stdout).toContain('No changes');
    expect(objectWrites(ws)).toEqual([]);
  });

  it('a local state path is resolved against the Settings document, from any working directory, and every plan says where the state is', async () => {
    const ws = await workspace();
    await ws.write('infra/m/settings.yaml', 'kind: Settings\nname: settings\nspec:\n  state: { backend: local, path: .converge/state.json }\n');
    await ws.write('infra/m/nomad/am.yaml', jwtMethod('sso-a'));
    const first = await ws.run(applying({}, ['infra/m']));
    expect(first.code, first.stderr).toBe(0);
    const statePath = join(ws.dir, 'infra', 'm', '.converge', 'state.json');
    const records = (JSON.parse(await readFile(statePath, 'utf8')) as { records: { source?: string }[] }).records;
    expect(records.map((r) => r.source)).toEqual([join('nomad', 'am.yaml')]);
    await expect(access(join(ws.dir, '.converge'))).rejects.toThrow();

    const fromInside = await inDir(ws, join('infra', 'm', 'nomad'), planning({}, ['.', '../settings.yaml']));
    expect(fromInside.code, fromInside.stderr).toBe(0);
    expect(fromInside.stdout).toContain(`State: local state file ${statePath} (1 owned object).`);
    expect(fromInside.stdout).toContain('No changes.');
  });
});
