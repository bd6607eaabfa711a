import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { givenApplied, openStory, planning, type Story } from '../library/story.js';
import { LOCAL_STATE_SETTINGS } from './manifests.js';

/*
 * Renaming a NomadAclRole is a delete and a create with a new ID, and tokens link roles by ID
 * (nomad/structs/acl.go ACLRole.Name): every live token linked to the old role silently lost its
 * policies, and the plan said nothing. Every role delete, rename or not, now carries a warning note in
 * the text, JSON and Markdown plans, with how to avoid it. Each plan runs the command's own code in this
 * process (its text and exit code) against the Nomad simulator on its ManualClock.
 */

const POLICY = `kind: NomadAclPolicy
name: readonly
spec:
  rules: |
    namespace "*" { policy = "read" }
`;

const role = (name: string) => `kind: NomadAclRole
name: ${name}
spec:
  policies: [readonly]
`;

describe('deleting or renaming an ACL role warns that live tokens lose its policies', () => {
  let ws: Story;
  beforeEach(async () => {
    ws = await openStory();
    await ws.write('settings.yaml', LOCAL_STATE_SETTINGS);
    await ws.write('policies.yaml', POLICY);
    await ws.write('roles.yaml', role('developer'));
    await givenApplied(ws);
  });
  afterEach(async () => ws?.close());

  it('a rename shows the warning on the delete, in text, JSON and Markdown', async () => {
    const roles = (await (await fetch(`${ws.env.NOMAD_ADDR}/v1/acl/roles`, { headers: { 'X-Nomad-Token': ws.env.NOMAD_TOKEN ?? '' } })).json()) as { ID: string; Name: string }[];
    const id = roles.find((r) => r.Name === 'developer')?.ID ?? '';
    expect(id).not.toBe('');
    await ws.write('roles.yaml', role('developers'));

    const text = await ws.run(planning());
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`warning: tokens link roles by ID, so every live token linked to role ${id} loses the role's policies when it is deleted`);
    expect(text.stdout).toContain("keep the role's name");

    const json = await ws.run(planning({ json: true }));
    const plan = JSON.parse(json.stdout) as { changes: { kind: string; name: string; action: string; noteCodes?: { code: string; id?: string }[] }[] };
    const del = plan.changes.find((c) => c.kind === 'NomadAclRole' && c.action === 'delete');
    expect(del?.name).toBe('developer');
    expect(del?.noteCodes).toContainEqual({ code: 'role-delete-unlinks-tokens', id });
    const create = plan.changes.find((c) => c.kind === 'NomadAclRole' && c.action === 'create');
    expect(create?.noteCodes ?? []).not.toContainEqual(expect.objectContaining({ code: 'role-delete-unlinks-tokens' }));

    const md = await ws.run(planning({ markdown: true }));
    expect(md.stdout).toContain(`# note: warning: tokens link roles by ID, so every live token linked to role ${id}`);
  });

  it('an edit of the role in place carries no warning', async () => {
    await ws.write('roles.yaml', `${role('developer')}  description: readers\n`);
    const text = await ws.run(planning());
    expect(text.stdout).toContain('developer');
    expect(text.stdout).not.toContain('tokens link roles by ID');
  });
});
