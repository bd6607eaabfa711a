import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applying, listing, planning, storyPerTest, type Story } from '../library/story.js';
import { tfeApi } from './harness.js';
import { LOCAL_STATE_SETTINGS, OKTA_METHOD } from './manifests.js';

/*
 * Renaming a document used to plan a delete and a create: a workspace lost its runs and state, a role got
 * a new ID (tokens linked to the old one lost its policies), a binding rule was recreated. A `kind: Moved`
 * document now renames: the workspace by PATCH of its name (same id, runs kept), the role by an update of
 * its ID, the binding rule in the state alone. Each step runs the command's own code in this process
 * (`plan`, `apply --auto-approve`, `state list`: their text and exit codes) against the simulators, on
 * their shared ManualClock, asserting on the simulators' request logs.
 */

const workspace = storyPerTest();

interface JsonPlan {
  changes: { kind: string; name: string; action: string; movedFrom?: string; reasons?: { code: string }[]; fields: { path: string; before: unknown; after: unknown }[] }[];
  summary: Record<string, number>;
  diagnostics: { severity: string; code: string }[];
}

const moved = (kind: string, from: string, to: string) => `kind: Moved
name: ${from}-to-${to}
spec:
  from: ${kind}/${from}
  to: ${kind}/${to}
`;

async function planJson(ws: Story): Promise<JsonPlan> {
  const r = await ws.run(planning({ json: true }));
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as JsonPlan;
}

async function stateNames(ws: Story): Promise<string> {
  return (await ws.run(listing())).stdout;
}

describe('a Moved document renames without deleting', () => {
  it('a NoCodeWorkspace is renamed in place: same id, runs kept, no delete or create sent', async () => {
    const ws = await workspace({ copyExamples: true });
    expect((await ws.run(applying())).code).toBe(0);
    const before = (await tfeApi(ws, 'GET', '/organizations/acme/workspaces/vpc-dev')).body as { data: { id: string } };
    const id = before.data.id;
    const runsBefore = ((await tfeApi(ws, 'GET', `/workspaces/${id}/runs`)).body as { data: { id: string }[] }).data.map((r) => r.id);
    expect(runsBefore.length).toBeGreaterThan(0);

    const file = join(ws.dir, 'tfe', 'vpc.yaml');
    await writeFile(file, (await readFile(file, 'utf8')).replace('name: vpc-dev', 'name: vpc-development'));
    // The example's Moved document, as its comment says to use it.
    await ws.write('tfe/moved.yaml', await readFile(join(ws.dir, 'moves', 'vpc-dev-renamed.yaml'), 'utf8'));

    const plan = await planJson(ws);
    expect(plan.summary).toEqual({ create: 0, update: 1, delete: 0, upgrade: 0 });
    const change = plan.changes.find((c) => c.kind === 'NoCodeWorkspace');
    expect(change).toMatchObject({ name: 'vpc-development', action: 'update', movedFrom: 'vpc-dev' });
    expect(change?.fields).toEqual([{ path: 'name', before: 'vpc-dev', after: 'vpc-development', sensitive: false }]);
    expect(change?.reasons?.[0]?.code).toBe('moved');
    const text = await ws.run(planning());
    expect(text.stdout).toContain('moved from NoCodeWorkspace/vpc-dev (a Moved document): renamed in place, keeping its id');

    ws.sandbox.log.clear();
    const apply = await ws.run(applying());
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    const writes = ws.sandbox.log.writes('tfe').map((e) => `${e.method} ${e.path}`);
    expect(writes).toEqual([`PATCH /api/v2/workspaces/${id}`]);

    const after = (await tfeApi(ws, 'GET', '/organizations/acme/workspaces/vpc-development')).body as { data: { id: string } };
    expect(after.data.id).toBe(id);
    const runsAfter = ((await tfeApi(ws, 'GET', `/workspaces/${id}/runs`)).body as { data: { id: string }[] }).data.map((r) => r.id);
    expect(runsAfter).toEqual(runsBefore);
    const state = await stateNames(ws);
    expect(state).toContain('NoCodeWorkspace/vpc-development');
    expect(state).not.toContain('NoCodeWorkspace/vpc-dev ');

    // Done: the next plan has nothing to do, and the Moved document left in place warns about nothing.
    const again = await ws.run(planning({ detailedExitcode: true }));
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(again.stderr).not.toContain('matches nothing');
  });

  it('a NoCodeWorkspace renamed while its module version moves: the rename, then the upgrade run recorded at the new name', async () => {
    const ws = await workspace({ copyExamples: true });
    expect((await ws.run(applying())).code).toBe(0);
    const id = ((await tfeApi(ws, 'GET', '/organizations/acme/workspaces/vpc-dev')).body as { data: { id: string } }).data.id;
    const file = join(ws.dir, 'tfe', 'vpc.yaml');
    await writeFile(file, (await readFile(file, 'utf8')).replace('name: vpc-dev', 'name: vpc-development').replace('versionPin: 1.4.0', 'versionPin: 1.5.0'));
    await ws.write('tfe/moved.yaml', await readFile(join(ws.dir, 'moves', 'vpc-dev-renamed.yaml'), 'utf8'));

    const plan = await planJson(ws);
    const change = plan.changes.find((c) => c.kind === 'NoCodeWorkspace');
    expect(change).toMatchObject({ name: 'vpc-development', action: 'upgrade', movedFrom: 'vpc-dev' });
    expect(plan.summary).toMatchObject({ create: 0, delete: 0 });

    const apply = await ws.run(applying());
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    const after = (await tfeApi(ws, 'GET', '/organizations/acme/workspaces/vpc-development')).body as { data: { id: string; attributes: Record<string, unknown> } };
    expect(after.data.id).toBe(id);
    expect(String(after.data.attributes['source-module-id'])).toContain('1.5.0');
    const state = await stateNames(ws);
    expect(state).toContain('NoCodeWorkspace/vpc-development');
    expect(state).not.toMatch(/NoCodeWorkspace\/vpc-dev\b(?!elopment)/);
    const again = await ws.run(planning({ detailedExitcode: true }));
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });

  it('a rename onto a name another live workspace holds is refused at plan time, at the Moved document', async () => {
    const ws = await workspace({ copyExamples: true });
    expect((await ws.run(applying())).code).toBe(0);
    const other = await fetch(`${ws.env.TFE_ADDRESS}/api/v2/organizations/acme/workspaces`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ws.sandbox.tfe.tokens.team}`, 'Content-Type': 'application/vnd.api+json' },
      body: JSON.stringify({ data: { type: 'workspaces', attributes: { name: 'vpc-development' } } }),
    });
    expect(other.status).toBe(201);
    const file = join(ws.dir, 'tfe', 'vpc.yaml');
    await writeFile(file, (await readFile(file, 'utf8')).replace('name: vpc-dev', 'name: vpc-development'));
    await ws.write('tfe/moved.yaml', await readFile(join(ws.dir, 'moves', 'vpc-dev-renamed.yaml'), 'utf8'));
    ws.sandbox.log.clear();
    const plan = await ws.run(planning({ json: true }));
    expect(plan.code).toBe(1);
    const parsed = JSON.parse(plan.stdout) as { diagnostics: { code: string; summary: string; range?: { file: string; start: { line: number } } }[] };
    const error = parsed.diagnostics.find((d) => d.code === 'plan.move-target-exists');
    expect(error?.summary).toContain('another live object already has the name vpc-development');
    expect(error?.range).toMatchObject({ file: 'tfe/moved.yaml', start: { line: 7 } });
    expect(ws.sandbox.log.writes('tfe')).toEqual([]);
  });

  it('a NomadAclRole keeps its ID and a NomadBindingRule its ID; the rule rename alone sends nothing', async () => {
    const ws = await workspace();
    const role = (name: string) => `kind: NomadAclRole\nname: ${name}\nspec:\n  policies: [readonly]\n`;
    const rule = (name: string, bindName: string) =>
      `kind: NomadBindingRule\nname: ${name}\nspec:\n  authMethod: okta\n  selector: '"engineering" in list.groups'\n  bindType: role\n  bindName: ${bindName}\n`;
    await ws.write('settings.yaml', LOCAL_STATE_SETTINGS);
    await ws.write('method.yaml', OKTA_METHOD);
    await ws.write('policy.yaml', 'kind: NomadAclPolicy\nname: readonly\nspec:\n  rules: |\n    namespace "*" { policy = "read" }\n');
    await ws.write('role.yaml', role('developer'));
    await ws.write('rule.yaml', rule('engineers', 'developer'));
    expect((await ws.run(applying())).code).toBe(0);
    ws.sandbox.log.clear();
    const headers = { 'X-Nomad-Token': ws.env.NOMAD_TOKEN ?? '' };
    const roles = async () => (await (await fetch(`${ws.env.NOMAD_ADDR}/v1/acl/roles`, { headers })).json()) as { ID: string; Name: string }[];
    const rules = async () => (await (await fetch(`${ws.env.NOMAD_ADDR}/v1/acl/binding-rules`, { headers })).json()) as { ID: string }[];
    const [roleBefore] = await roles();
    const [ruleBefore] = await rules();

    // The rule alone: converge's own name, so only the state moves.
    await ws.write('rule.yaml', rule('engineering', 'developer'));
    await ws.write('moves.yaml', moved('NomadBindingRule', 'engineers', 'engineering'));
    const rulePlan = await planJson(ws);
    expect(rulePlan.summary).toEqual({ create: 0, update: 1, delete: 0, upgrade: 0 });
    expect(rulePlan.changes).toMatchObject([{ kind: 'NomadBindingRule', name: 'engineering', action: 'update', movedFrom: 'engineers' }]);
    ws.sandbox.log.clear();
    expect((await ws.run(applying())).code).toBe(0);
    expect(ws.sandbox.log.writes('nomad')).toEqual([]);
    expect((await rules()).map((r) => r.ID)).toEqual([ruleBefore?.ID]);
    expect(await stateNames(ws)).toContain('NomadBindingRule/engineering');

    // The role, and the rule that binds it by name: an update of each by its ID, nothing deleted or created.
    await ws.write('role.yaml', role('developers'));
    await ws.write('rule.yaml', rule('engineering', 'developers'));
    await ws.write('moves.yaml', `${moved('NomadBindingRule', 'engineers', 'engineering')}---\n${moved('NomadAclRole', 'developer', 'developers')}`);
    const rolePlan = await planJson(ws);
    expect(rolePlan.summary).toEqual({ create: 0, update: 2, delete: 0, upgrade: 0 });
    expect(rolePlan.changes.find((c) => c.kind === 'NomadAclRole')).toMatchObject({ name: 'developers', action: 'update', movedFrom: 'developer' });
    ws.sandbox.log.clear();
    const apply = await ws.run(applying());
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    expect(ws.sandbox.log.writes('nomad').map((e) => `${e.method} ${e.path}`)).toEqual([
      `POST /v1/acl/role/${roleBefore?.ID}`,
      `POST /v1/acl/binding-rule/${ruleBefore?.ID}`,
    ]);
    expect(await roles()).toMatchObject([{ ID: roleBefore?.ID, Name: 'developers' }]);
    expect((await rules()).map((r) => r.ID)).toEqual([ruleBefore?.ID]);
    const again = await ws.run(planning({ detailedExitcode: true }));
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });
});
