import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applying, givenApplied, listing, planning, storyPerTest } from '../library/story.js';
import { tfeApi } from './harness.js';
import { LOCAL_STATE_SETTINGS } from './manifests.js';

/*
 * A move is two steps apply cannot make atomic: the live rename, then the state (the record saved at the
 * new address, then the old one dropped). An apply killed between them leaves one of two states; each test
 * below builds that state exactly (the live rename done outside converge, or the state file holding both
 * records) and shows that rerunning the apply converges with no duplicate object, no orphan and no
 * delete or create. The state is built by hand, so no process needs killing: each rerun, plan and state list
 * runs the command's own code in this process (its text and exit code) on the simulators' ManualClock.
 */

const workspace = storyPerTest();

interface StateFile {
  serial: number;
  records: { kind: string; name: string; id: string }[];
}

describe('a move interrupted by a killed apply converges on the rerun', () => {
  it('killed after the live rename, before the state write: the rerun records the renamed workspace, sending no create or delete', async () => {
    const ws = await workspace({ copyExamples: true });
    expect((await ws.run(applying())).code).toBe(0);
    const id = ((await tfeApi(ws, 'GET', '/organizations/acme/workspaces/vpc-dev')).body as { data: { id: string } }).data.id;
    // What the killed apply did before dying: the PATCH of the name.
    const patch = await fetch(`${ws.env.TFE_ADDRESS}/api/v2/workspaces/${id}`, {
      method: 'PATCH',
      headers: { Authorization: `Bearer ${ws.env.TFE_TOKEN}`, 'Content-Type': 'application/vnd.api+json' },
      body: JSON.stringify({ data: { type: 'workspaces', attributes: { name: 'vpc-development' } } }),
    });
    expect(patch.status).toBe(200);

    const file = join(ws.dir, 'tfe', 'vpc.yaml');
    await writeFile(file, (await readFile(file, 'utf8')).replace('name: vpc-dev', 'name: vpc-development'));
    await writeFile(join(ws.dir, 'tfe', 'moved.yaml'), await readFile(join(ws.dir, 'moves', 'vpc-dev-renamed.yaml'), 'utf8'));
    ws.sandbox.log.clear();
    const apply = await ws.run(applying());
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    const writes = ws.sandbox.log.writes('tfe').map((e) => `${e.method} ${e.path}`);
    expect(writes.filter((w) => !w.startsWith(`PATCH /api/v2/workspaces/${id}`))).toEqual([]);

    const list = (await tfeApi(ws, 'GET', '/organizations/acme/workspaces')).body as { data: { id: string; attributes: { name: string } }[] };
    expect(list.data.filter((w) => w.attributes.name.startsWith('vpc-'))).toMatchObject([{ id, attributes: { name: 'vpc-development' } }]);
    const state = (await ws.run(listing())).stdout;
    expect(state).toContain('NoCodeWorkspace/vpc-development');
    expect(state).not.toMatch(/NoCodeWorkspace\/vpc-dev\b(?!elopment)/);
    const again = await ws.run(planning({ detailedExitcode: true }));
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });

  it('killed between the two state writes: the old record is dropped as the move’s leftover, and Nomad gets no request', async () => {
    const ws = await workspace();
    const role = (name: string) => `kind: NomadAclRole\nname: ${name}\nspec:\n  policies: [readonly]\n`;
    await ws.write('settings.yaml', LOCAL_STATE_SETTINGS);
    await ws.write('policy.yaml', 'kind: NomadAclPolicy\nname: readonly\nspec:\n  rules: |\n    namespace "*" { policy = "read" }\n');
    await ws.write('role.yaml', role('developer'));
    await givenApplied(ws);

    // The killed apply renamed the role and saved its record at the new address, but not yet dropped the old one.
    const headers = { 'X-Nomad-Token': ws.env.NOMAD_TOKEN ?? '' };
    const [live] = (await (await fetch(`${ws.env.NOMAD_ADDR}/v1/acl/roles`, { headers })).json()) as { ID: string }[];
    const renamed = await fetch(`${ws.env.NOMAD_ADDR}/v1/acl/role/${live?.ID}`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ ID: live?.ID, Name: 'developers', Policies: [{ Name: 'readonly' }] }),
    });
    expect(renamed.status).toBe(200);
    const path = join(ws.dir, '.converge', 'state.json');
    const state = JSON.parse(await readFile(path, 'utf8')) as StateFile;
    const old = state.records.find((r) => r.kind === 'NomadAclRole');
    state.records.push({ ...(old as StateFile['records'][number]), name: 'developers' });
    state.serial += 1;
    await writeFile(path, JSON.stringify(state));

    await ws.write('role.yaml', role('developers'));
    await ws.write('moved.yaml', 'kind: Moved\nname: plural\nspec:\n  from: NomadAclRole/developer\n  to: NomadAclRole/developers\n');
    const plan = await ws.run(planning());
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('left over by an apply stopped while moving the object to NomadAclRole/developers');
    expect(plan.stdout).not.toMatch(/\bdelete\b|\bcreate\b/);

    ws.sandbox.log.clear();
    const apply = await ws.run(applying());
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    expect(ws.sandbox.log.writes('nomad')).toEqual([]);
    const list = (await ws.run(listing())).stdout;
    expect(list).toContain('NomadAclRole/developers');
    expect(list).not.toMatch(/NomadAclRole\/developer\b(?!s)/);
    const roles = (await (await fetch(`${ws.env.NOMAD_ADDR}/v1/acl/roles`, { headers })).json()) as { ID: string }[];
    expect(roles.map((r) => r.ID)).toEqual([live?.ID]);
    const again = await ws.run(planning({ detailedExitcode: true }));
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });
});
