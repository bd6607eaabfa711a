import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderPlanText } from '../../src/views/plan-text.js';
import { storyPerTest, worded, type Story } from '../library/story.js';
import { LOCAL_STATE_SETTINGS, OKTA_METHOD } from './manifests.js';

/** The per-team rule's bind name uses ${value.team}: the method maps a claim to team. */
const OKTA_WITH_TEAM = `${OKTA_METHOD}    claimMappings: { team: team }\n`;

/*
 * The ACL chain end to end: the library against the Nomad simulator in this process, one chain of OIDC method
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

interface LiveRole {
  ID: string;
  Name: string;
  Description: string;
  Policies: { Name: string }[];
}

const story = storyPerTest();

describe('Nomad ACL policies and roles end to end (library ↔ simulator in-process)', () => {
  let s: Story;
  const get = async <T>(path: string): Promise<T> =>
    (await (await fetch(`${s.sandbox.nomad.url}${path}`, { headers: { 'X-Nomad-Token': s.sandbox.nomad.managementToken } })).json()) as T;
  const liveRoles = () => get<LiveRole[]>('/v1/acl/roles');
  const livePolicies = async () => (await get<{ Name: string }[]>('/v1/acl/policies')).map((p) => p.Name).sort();
  const writePaths = () => s.writes('nomad');
  const firstIndex = (writes: string[], prefix: string) => writes.findIndex((w) => w.startsWith(prefix));
  const lastIndex = (writes: string[], prefix: string) => writes.map((w) => w.startsWith(prefix)).lastIndexOf(true);
  /** What `plan --detailed-exitcode` exits 0 on: every change a no-op, nothing to adopt. */
  const clean = async () => (await s.plan())!.run.plan.changes.every((c) => c.action === 'no-op' && !c.adopt);
  /** The world as written applied by converge, the request log cleared. */
  const givenApplied = async () => {
    await s.apply();
    s.sandbox.log.clear();
  };

  // Each test starts from a fresh simulator and directory, and first makes the world it needs
  // (`givenApplied`), so any one of them runs alone (`-t`).
  beforeEach(async () => {
    s = await story();
    await s.write('settings.yaml', LOCAL_STATE_SETTINGS);
    await s.write('method.yaml', OKTA_WITH_TEAM);
    await s.write('policies.yaml', policies());
    await s.write('roles.yaml', roles());
    await s.write('rules.yaml', rules());
  });

  it('a rule binding a role that exists nowhere fails the plan at its bindName line, and nothing is sent', async () => {
    await s.write('rules.yaml', rules('ghost'));
    s.sandbox.log.clear();
    const r = await s.tryPlan();
    expect(r.result).toBeUndefined();
    // rules.yaml line 7 is `  bindName: ghost`; the value starts at column 13.
    expect(r.problems).toContain('on rules.yaml line 7, column 13');
    expect(r.problems).toContain('role ghost is neither in the manifests nor in Nomad');
    expect((await s.tryApply()).report.status).toBe('invalid');
    expect(writePaths()).toEqual([]);
  });

  it('creates policies, then roles, then the rules that bind them; a re-plan has no changes', async () => {
    const planned = (await s.plan())!.run.plan.changes.map(worded);
    // The templated bind name cannot be checked: said, not refused.
    expect(planned.find((c) => c.name === 'per-team')?.notes.join(' ')).toMatch(/template/);
    s.sandbox.log.clear();
    const a = await s.apply();
    expect(a.status).toBe('applied');
    const writes = writePaths();
    expect(lastIndex(writes, 'POST /v1/acl/policy/')).toBeLessThan(firstIndex(writes, 'POST /v1/acl/role'));
    expect(lastIndex(writes, 'POST /v1/acl/role')).toBeLessThan(firstIndex(writes, 'POST /v1/acl/binding-rule'));
    expect(await livePolicies()).toEqual(['operator', 'readonly']);
    const developer = (await liveRoles()).find((r) => r.Name === 'developer');
    expect(developer?.Policies.map((p) => p.Name)).toEqual(['operator', 'readonly']);

    s.sandbox.log.clear();
    const p = await s.plan();
    expect(p!.run.plan.changes.every((c) => c.action === 'no-op' && !c.adopt)).toBe(true);
    expect(renderPlanText(p!.run.plan, { color: false })).toContain('No changes');
    expect(writePaths()).toEqual([]);
    // The Hash in the state spares the policy reads: lists only.
    expect(s.sandbox.log.entries({ service: 'nomad' }).filter((e) => e.path.startsWith('/v1/acl/policy/'))).toEqual([]);
  });

  it('trailing blanks in the rules are no change; a real edit and a changed role are updates in place', async () => {
    await givenApplied();
    await s.write('policies.yaml', policies('namespace "*" { policy = "write" }   \n    node { policy = "read" }\n\n'));
    expect(await clean()).toBe(true);

    await s.write('policies.yaml', policies('namespace "*" { policy = "write" }\n    node { policy = "write" }'));
    await s.write('roles.yaml', roles('[operator]'));
    const before = (await liveRoles()).find((r) => r.Name === 'developer');
    const changes = (await s.plan())!.run.plan.changes;
    expect(changes.find((c) => c.name === 'operator')).toMatchObject({ action: 'update', fields: [{ path: 'rules' }] });
    expect(changes.find((c) => c.name === 'developer')).toMatchObject({ action: 'update', fields: [{ path: 'policies' }] });
    expect((await s.apply()).status).toBe('applied');
    const after = (await liveRoles()).find((r) => r.Name === 'developer');
    expect(after?.ID).toBe(before?.ID);
    expect(after?.Policies.map((x) => x.Name)).toEqual(['operator']);
    const operator = await get<{ Rules: string }>('/v1/acl/policy/operator');
    expect(operator.Rules).toBe('namespace "*" { policy = "write" }\nnode { policy = "write" }\n');
    expect(await clean()).toBe(true);
  });

  it('after the state is lost, adopts the live roles by name instead of creating a second one', async () => {
    await givenApplied();
    const ids = (await liveRoles()).map((r) => r.ID).sort();
    await rm(join(s.dir, '.converge'), { recursive: true, force: true });
    const p = await s.plan();
    const changes = p!.run.plan.changes.map(worded);
    expect(changes.filter((c) => c.action === 'create')).toEqual([]);
    for (const name of ['developer', 'viewer']) {
      const c = changes.find((x) => x.kind === 'NomadAclRole' && x.name === name);
      expect(c, name).toMatchObject({ action: 'no-op', adopt: true });
      expect(c?.notes.join(' '), name).toMatch(/adopted existing role/);
    }
    expect(changes.find((x) => x.name === 'operator')).toMatchObject({ action: 'no-op', adopt: true });
    s.sandbox.log.clear();
    // A lost state is a new one: it takes over what is live only with consent (decisions.md §27).
    await expect(s.tryApply()).rejects.toThrow(/without consent/);
    expect((await s.apply({ adoptAll: true })).status).toBe('applied');
    expect(writePaths().filter((w) => w.includes('/acl/role') || w.includes('/acl/policy'))).toEqual([]);
    expect((await liveRoles()).map((r) => r.ID).sort()).toEqual(ids);
    expect(await clean()).toBe(true);
  });

  it('deleting a policy that a kept role still uses is refused at plan time with both names', async () => {
    await givenApplied();
    await s.write('policies.yaml', policies().split('---')[0] ?? '');
    s.sandbox.log.clear();
    const r = await s.tryPlan();
    expect(r.result).toBeUndefined();
    expect(r.problems).toContain('NomadAclPolicy/readonly is deleted by this plan');
    expect(r.problems).toContain('NomadAclRole/viewer still uses it');
    // roles.yaml line 10 is `  policies: [readonly]`: the entry itself.
    expect(r.problems).toContain('on roles.yaml line 10, column 14');
    expect(writePaths()).toEqual([]);
  });

  it('deleting the chain deletes rules, then roles, then policies: no orphaned role or rule', async () => {
    await givenApplied();
    for (const f of ['rules.yaml', 'roles.yaml', 'policies.yaml', 'method.yaml']) await rm(join(s.dir, f));
    s.sandbox.log.clear();
    // No documents left while the state owns objects: deleting everything is asked for (decision 16).
    expect((await s.apply({ allowEmpty: true })).status).toBe('applied');
    const writes = writePaths();
    expect(lastIndex(writes, 'DELETE /v1/acl/binding-rule')).toBeLessThan(firstIndex(writes, 'DELETE /v1/acl/role'));
    expect(lastIndex(writes, 'DELETE /v1/acl/role')).toBeLessThan(firstIndex(writes, 'DELETE /v1/acl/policy/'));
    expect(await liveRoles()).toEqual([]);
    expect(await livePolicies()).toEqual([]);
    expect(await get<unknown[]>('/v1/acl/binding-rules')).toEqual([]);
  });
});
