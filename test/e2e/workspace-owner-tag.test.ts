import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWorkspace, runCli, type Workspace } from './harness.js';

/*
 * Issue 14 (splitting a fleet): two states, one organization. A state with a name (Settings
 * `spec.state.name`) tags each workspace it creates `converge-state:<name>`; another state's plan refuses a
 * workspace carrying that tag instead of adopting it, names the owner and how to move it, and its apply sends
 * nothing. Built CLI against the sandbox; both states share one sandbox and one token, as two CI jobs would.
 */

const settings = (name?: string) =>
  `kind: Settings\nname: s\nspec:\n  tfe: { organization: acme }\n  state: { backend: local, path: .converge/state.json${name ? `, name: ${name}` : ''} }\n`;

const LAMBDA = `kind: NoCodeModule
name: lambda
spec:
  registryModule: acme/lambda/aws
---
kind: NoCodeWorkspace
name: lambda-dev
spec:
  module: lambda
  variables:
    - key: function_name
      value: hello-dev
    - key: runtime
      value: nodejs20.x
`;

describe('a workspace owned by another state is refused, never adopted (built CLI ↔ sandbox)', () => {
  let a: Workspace;
  let bDir: string;
  const b = (args: string[]) => runCli(args, { cwd: bDir, env: a.env });
  const tags = async (): Promise<string[]> => {
    const res = await fetch(`${a.env.TFE_ADDRESS}/api/v2/organizations/acme/workspaces/lambda-dev`, { headers: { Authorization: `Bearer ${a.env.TFE_TOKEN}` } });
    const body = (await res.json()) as { data: { id: string; attributes: { 'tag-names': string[] } } };
    return body.data.attributes['tag-names'];
  };

  beforeAll(async () => {
    a = await openWorkspace();
    await a.write('settings.yaml', settings('team-a'));
    await a.write('tfe.yaml', LAMBDA);
    const r = await a.cli(['apply', '--auto-approve']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    bDir = await mkdtemp(join(tmpdir(), 'converge-e2e-b-'));
    await writeFile(join(bDir, 'tfe.yaml'), LAMBDA);
  });
  afterAll(async () => {
    await a?.close();
    if (bDir) await rm(bDir, { recursive: true, force: true });
  });

  it('the first state tags the workspace it creates with its name, and stays converged', async () => {
    expect(await tags()).toEqual(['converge-state:team-a']);
    const p = await a.cli(['plan', '--detailed-exitcode']);
    expect(p.code, p.stdout + p.stderr).toBe(0);
  });

  it('a second named state refuses it at plan time: file:line, the owner, how to move it; its apply writes nothing', async () => {
    await writeFile(join(bDir, 'settings.yaml'), settings('team-b'));
    const p = await b(['plan', '--detailed-exitcode']);
    expect(p.code, p.stdout + p.stderr).toBe(1);
    expect(p.stderr).toContain('on tfe.yaml line 6, column 1:');
    expect(p.stderr).toContain('NoCodeWorkspace/lambda-dev is owned by the converge state "team-a" (its tag converge-state:team-a): this state (team-b) will not adopt it');
    expect(p.stderr).toContain('in the "team-a" state run `converge state rm NoCodeWorkspace/lambda-dev`');
    a.sandbox.log.clear();
    const apply = await b(['apply', '--auto-approve']);
    expect(apply.code, apply.stdout + apply.stderr).toBe(1);
    expect(a.sandbox.log.writes('tfe')).toEqual([]);
    expect(await tags()).toEqual(['converge-state:team-a']);
  });

  it('a state without a name refuses it too', async () => {
    await writeFile(join(bDir, 'settings.yaml'), settings());
    const p = await b(['plan']);
    expect(p.code).toBe(1);
    expect(p.stderr).toContain('owned by the converge state "team-a" (its tag converge-state:team-a): this state (it has no name) will not adopt it');
  });

  it('after the owner lets go (state rm, tag removed) the second state adopts it and tags it with its own name', async () => {
    await writeFile(join(bDir, 'settings.yaml'), settings('team-b'));
    expect((await a.cli(['state', 'rm', 'NoCodeWorkspace/lambda-dev'])).code).toBe(0);
    const show = await fetch(`${a.env.TFE_ADDRESS}/api/v2/organizations/acme/workspaces/lambda-dev`, { headers: { Authorization: `Bearer ${a.env.TFE_TOKEN}` } });
    const id = ((await show.json()) as { data: { id: string } }).data.id;
    const del = await fetch(`${a.env.TFE_ADDRESS}/api/v2/workspaces/${id}/relationships/tags`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${a.env.TFE_TOKEN}`, 'Content-Type': 'application/vnd.api+json' },
      body: JSON.stringify({ data: [{ type: 'tags', attributes: { name: 'converge-state:team-a' } }] }),
    });
    expect(del.status).toBe(204);
    const p = await b(['plan', '--json']);
    expect(p.code, p.stderr).toBe(0);
    const plan = JSON.parse(p.stdout) as { changes: { action: string; name: string; reason?: string }[] };
    expect(plan.changes.find((c) => c.name === 'lambda-dev')).toMatchObject({ action: 'update', reason: 'tag the workspace converge-state:team-b (owner of record)' });
    const apply = await b(['apply', '--auto-approve']);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    expect(await tags()).toEqual(['converge-state:team-b']);
    expect((await b(['plan', '--detailed-exitcode'])).code).toBe(0);
  });
});
