import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { givenApplied, openWorkspace, type Workspace } from './harness.js';
import { LOCAL_STATE_SETTINGS, OKTA_METHOD } from './manifests.js';

/** The per-team rule's bind name uses ${value.team}: the method maps a claim to team. */
const OKTA_WITH_TEAM = `${OKTA_METHOD}    claimMappings: { team: team }\n`;

/*
 * The ACL chain end to end: the built CLI against the Nomad sandbox over loopback, one chain of OIDC method
 * → binding rules → roles → policies. Covers create (policies, then roles, then rules), re-plan = no
 * changes, update (rules text, role policies), state lost then adopted (no second role), a rule binding
 * a missing role refused at plan time with file:line:col and nothing sent, a policy deleted while a
 * kept role uses it refused with both names, and deleting the chain in the safe order.
 */

function policies(operatorRules = 'namespace "*" { policy = "write" }\n    node { policy = "read" }'): string {
  return `kind: NomadAclPolicy
name: operator
spec:
  description: Operate jobs in every namespace
  rules: |
    ${operatorRules}
  jobAcl:
    namespace: default
    jobId: example
---
kind: NomadAclPolicy
name: readonly
spec:
  rules: |
    namespace "*" { policy = "read" }
`;
}

function roles(developerPolicies = '[operator, readonly]'): string {
  return `kind: NomadAclRole
name: developer
spec:
  description: Application developers
  policies: ${developerPolicies}
---
kind: NomadAclRole
name: viewer
spec:
  policies: [readonly]
`;
}

function rules(developerBind = 'developer'): string {
  return `kind: NomadBindingRule
name: engineers
spec:
  authMethod: okta
  selector: '"engineering" in list.groups'
  bindType: role
  bindName: ${developerBind}
---
kind: NomadBindingRule
name: readers
spec:
  authMethod: okta
  bindType: policy
  bindName: readonly
---
kind: NomadBindingRule
name: per-team
spec:
  authMethod: okta
  bindType: role
  bindName: team-\${value.team}
`;
}

interface JsonPlan {
  changes: { kind: string; name: string; action: string; adopt?: boolean; notes?: string[]; fields: { path: string }[] }[];
  summary: Record<string, number>;
}

interface LiveRole {
  ID: string;
  Name: string;
  Description: string;
  Policies: { Name: string }[];
}

describe('Nomad ACL policies and roles end to end (built CLI ↔ sandbox over loopback)', () => {
  let ws: Workspace;
  const get = async <T>(path: string): Promise<T> =>
    (await (await fetch(`${ws.sandbox.nomad.url}${path}`, { headers: { 'X-Nomad-Token': ws.sandbox.nomad.managementToken } })).json()) as T;
  const liveRoles = () => get<LiveRole[]>('/v1/acl/roles');
  const livePolicies = async () => (await get<{ Name: string }[]>('/v1/acl/policies')).map((p) => p.Name).sort();
  const writePaths = () => ws.sandbox.log.writes('nomad').map((e) => `${e.method} ${e.path}`);
  const firstIndex = (writes: string[], prefix: string) => writes.findIndex((w) => w.startsWith(prefix));
  const lastIndex = (writes: string[], prefix: string) => writes.map((w) => w.startsWith(prefix)).lastIndexOf(true);

  // Each test starts from a fresh sandbox and directory, and first makes the world it needs
  // (`givenApplied`), so any one of them runs alone (`-t`).
  beforeEach(async () => {
    ws = await openWorkspace();
    await ws.write('settings.yaml', LOCAL_STATE_SETTINGS);
    await ws.write('method.yaml', OKTA_WITH_TEAM);
    await ws.write('policies.yaml', policies());
    await ws.write('roles.yaml', roles());
    await ws.write('rules.yaml', rules());
  });
  afterEach(async () => ws?.close());

  it('a rule binding a role that exists nowhere fails the plan at its bindName line, and nothing is sent', async () => {
    await ws.write('rules.yaml', rules('ghost'));
    ws.sandbox.log.clear();
    const r = await ws.cli(['plan']);
    expect(r.code).toBe(1);
    // rules.yaml line 7 is `  bindName: ghost`; the value starts at column 13.
    expect(r.stderr).toContain('on rules.yaml line 7, column 13');
    expect(r.stderr).toContain('role ghost is neither in the manifests nor in Nomad');
    const a = await ws.cli(['apply', '--auto-approve']);
    expect(a.code).toBe(1);
    expect(writePaths()).toEqual([]);
  });

  it('creates policies, then roles, then the rules that bind them; a re-plan has no changes', async () => {
    const json = JSON.parse((await ws.cli(['plan', '--json'])).stdout) as JsonPlan;
    // The templated bind name cannot be checked: said, not refused.
    expect(json.changes.find((c) => c.name === 'per-team')?.notes?.join(' ')).toMatch(/template/);
    ws.sandbox.log.clear();
    const a = await ws.cli(['apply', '--auto-approve']);
    expect(a.stderr).not.toMatch(/failed/i);
    expect(a.code).toBe(0);
    const writes = writePaths();
    expect(lastIndex(writes, 'POST /v1/acl/policy/')).toBeLessThan(firstIndex(writes, 'POST /v1/acl/role'));
    expect(lastIndex(writes, 'POST /v1/acl/role')).toBeLessThan(firstIndex(writes, 'POST /v1/acl/binding-rule'));
    expect(await livePolicies()).toEqual(['operator', 'readonly']);
    const developer = (await liveRoles()).find((r) => r.Name === 'developer');
    expect(developer?.Policies.map((p) => p.Name)).toEqual(['operator', 'readonly']);

    ws.sandbox.log.clear();
    const p = await ws.cli(['plan', '--detailed-exitcode']);
    expect(p.code).toBe(0);
    expect(p.stdout).toContain('No changes');
    expect(writePaths()).toEqual([]);
    // The Hash in the state spares the policy reads: lists only.
    expect(ws.sandbox.log.entries({ service: 'nomad' }).filter((e) => e.path.startsWith('/v1/acl/policy/'))).toEqual([]);
  });

  it('trailing blanks in the rules are no change; a real edit and a changed role are updates in place', async () => {
    await givenApplied(ws);
    await ws.write('policies.yaml', policies('namespace "*" { policy = "write" }   \n    node { policy = "read" }\n\n'));
    expect((await ws.cli(['plan', '--detailed-exitcode'])).code).toBe(0);

    await ws.write('policies.yaml', policies('namespace "*" { policy = "write" }\n    node { policy = "write" }'));
    await ws.write('roles.yaml', roles('[operator]'));
    const before = (await liveRoles()).find((r) => r.Name === 'developer');
    const p = await ws.cli(['plan', '--json']);
    const plan = JSON.parse(p.stdout) as JsonPlan;
    expect(plan.changes.find((c) => c.name === 'operator')).toMatchObject({ action: 'update', fields: [{ path: 'rules' }] });
    expect(plan.changes.find((c) => c.name === 'developer')).toMatchObject({ action: 'update', fields: [{ path: 'policies' }] });
    expect((await ws.cli(['apply', '--auto-approve'])).code).toBe(0);
    const after = (await liveRoles()).find((r) => r.Name === 'developer');
    expect(after?.ID).toBe(before?.ID);
    expect(after?.Policies.map((x) => x.Name)).toEqual(['operator']);
    const operator = await get<{ Rules: string }>('/v1/acl/policy/operator');
    expect(operator.Rules).toBe('namespace "*" { policy = "write" }\nnode { policy = "write" }\n');
    expect((await ws.cli(['plan', '--detailed-exitcode'])).code).toBe(0);
  });

  it('after the state is lost, adopts the live roles by name instead of creating a second one', async () => {
    await givenApplied(ws);
    const ids = (await liveRoles()).map((r) => r.ID).sort();
    await rm(join(ws.dir, '.converge'), { recursive: true, force: true });
    const p = await ws.cli(['plan', '--json']);
    expect(p.code).toBe(0);
    const plan = JSON.parse(p.stdout) as JsonPlan;
    expect(plan.summary.create).toBe(0);
    for (const name of ['developer', 'viewer']) {
      const c = plan.changes.find((x) => x.kind === 'NomadAclRole' && x.name === name);
      expect(c, name).toMatchObject({ action: 'no-op', adopt: true });
      expect(c?.notes?.join(' '), name).toMatch(/adopted existing role/);
    }
    expect(plan.changes.find((x) => x.name === 'operator')).toMatchObject({ action: 'no-op', adopt: true });
    ws.sandbox.log.clear();
    // A lost state is a new one: it takes over what is live only with consent (decisions.md §27).
    expect((await ws.cli(['apply', '--auto-approve'])).code).toBe(1);
    expect((await ws.cli(['apply', '--auto-approve', '--adopt-all'])).code).toBe(0);
    expect(writePaths().filter((w) => w.includes('/acl/role') || w.includes('/acl/policy'))).toEqual([]);
    expect((await liveRoles()).map((r) => r.ID).sort()).toEqual(ids);
    expect((await ws.cli(['plan', '--detailed-exitcode'])).code).toBe(0);
  });

  it('deleting a policy that a kept role still uses is refused at plan time with both names', async () => {
    await givenApplied(ws);
    await ws.write('policies.yaml', policies().split('---')[0] ?? '');
    ws.sandbox.log.clear();
    const r = await ws.cli(['plan']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('NomadAclPolicy/readonly is deleted by this plan');
    expect(r.stderr).toContain('NomadAclRole/viewer still uses it');
    // roles.yaml line 10 is `  policies: [readonly]`: the entry itself.
    expect(r.stderr).toContain('on roles.yaml line 10, column 14');
    expect(writePaths()).toEqual([]);
  });

  it('deleting the chain deletes rules, then roles, then policies: no orphaned role or rule', async () => {
    await givenApplied(ws);
    for (const f of ['rules.yaml', 'roles.yaml', 'policies.yaml', 'method.yaml']) await rm(join(ws.dir, f));
    ws.sandbox.log.clear();
    // No documents left while the state owns objects: deleting everything is asked for (decision 16).
    const a = await ws.cli(['apply', '--auto-approve', '--allow-empty']);
    expect(a.stderr).not.toMatch(/failed/i);
    expect(a.code).toBe(0);
    const writes = writePaths();
    expect(lastIndex(writes, 'DELETE /v1/acl/binding-rule')).toBeLessThan(firstIndex(writes, 'DELETE /v1/acl/role'));
    expect(lastIndex(writes, 'DELETE /v1/acl/role')).toBeLessThan(firstIndex(writes, 'DELETE /v1/acl/policy/'));
    expect(await liveRoles()).toEqual([]);
    expect(await livePolicies()).toEqual([]);
    expect(await get<unknown[]>('/v1/acl/binding-rules')).toEqual([]);
  });
});
