import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AnyDesired } from '../../../src/model/desired.js';
import { adoptedRoleNote } from '../../../src/kinds/nomad-acl-role/remote/load.js';
import { openRig, type Rig } from './harness.js';
import { aclPolicy, aclRole } from './helpers.js';

/*
 * The Nomad provider's ACL policies and roles against the simulator over loopback: the Hash skip,
 * changes made by hand, and a role found by name when its recorded UUID is gone.
 */

let rig: Rig;
beforeEach(async () => {
  rig = await openRig();
});
afterEach(async () => rig.close());

const any = (o: unknown): AnyDesired => o as AnyDesired;
const chain = (rules = 'node { policy = "read" }\n'): AnyDesired[] => [any(aclPolicy('readonly', rules)), any(aclRole('viewer', ['readonly'], { description: 'viewers' }))];
const requests = () => rig.sim.log.entries().map((e) => `${e.method} ${e.path}`);

describe('Nomad provider against the simulator: ACL policies and roles', () => {
  it('records the policy Hash read back after the write, so a re-plan reads the two lists only', async () => {
    const { outcomes } = await rig.converge(chain());
    expect(outcomes.map((o) => `${o.kind}/${o.name}:${o.status}`)).toEqual(['NomadAclPolicy/readonly:succeeded', 'NomadAclRole/viewer:succeeded']);
    expect(rig.records.get('NomadAclPolicy/readonly')?.extra.hash).toMatch(/\S/);
    expect(rig.records.get('NomadAclRole/viewer')?.id).toMatch(/^[0-9a-f-]{36}$/);
    rig.sim.log.clear();
    const again = await rig.plan(chain());
    expect(again.planned.map((p) => p.change.action)).toEqual(['no-op', 'no-op']);
    expect(requests()).toEqual(['GET /v1/acl/policies', 'GET /v1/acl/roles']);
  });

  it('rules edited by hand: the moved Hash makes the plan read the policy and put the manifest back', async () => {
    await rig.converge(chain());
    await rig.raw('POST', '/v1/acl/policy/readonly', { Name: 'readonly', Rules: 'node { policy = "write" }' });
    rig.sim.log.clear();
    const { planned } = await rig.plan(chain());
    expect(planned.find((p) => p.change.name === 'readonly')?.change).toMatchObject({ action: 'update', fields: [{ path: 'rules' }] });
    expect(requests()).toContain('GET /v1/acl/policy/readonly');
    await rig.converge(chain());
    expect(((await rig.raw('GET', '/v1/acl/policy/readonly')).json as { Rules: string }).Rules).toBe('node { policy = "read" }\n');
  });

  it('a role deleted and made again by hand under the same name is found by name, not created twice', async () => {
    await rig.converge(chain());
    const old = rig.records.get('NomadAclRole/viewer')?.id;
    await rig.raw('DELETE', `/v1/acl/role/${old}`);
    const made = await rig.raw('POST', '/v1/acl/role', { Name: 'viewer', Description: 'by hand', Policies: [{ Name: 'readonly' }] });
    const id = (made.json as { ID: string }).ID;
    const { planned } = await rig.plan(chain());
    const viewer = planned.find((p) => p.change.name === 'viewer');
    expect(viewer?.change).toMatchObject({ action: 'update', fields: [{ path: 'description' }] });
    expect(viewer?.change.notes).toContainEqual(adoptedRoleNote(id));
    await rig.converge(chain());
    expect(rig.records.get('NomadAclRole/viewer')?.id).toBe(id);
    expect(((await rig.raw('GET', '/v1/acl/roles')).json as unknown[]).length).toBe(1);
  });

  it('deleting a policy that a role converge does not manage links is a warning naming both', async () => {
    await rig.converge([any(aclPolicy('readonly', 'node { policy = "read" }'))]);
    await rig.raw('POST', '/v1/acl/role', { Name: 'hand-made', Policies: [{ Name: 'readonly' }] });
    const { load, planned } = await rig.plan([]);
    expect(planned.map((p) => `${p.change.action} ${p.change.name}`)).toEqual(['delete readonly']);
    expect(load.diagnostics).toEqual([
      expect.objectContaining({ severity: 'warning', code: 'nomad.acl-policy.linked-by-unmanaged-role', summary: expect.stringContaining('the role hand-made') }),
    ]);
  });

  it('--region: a replica that has not copied the policy and role yet is one lag warning, not drift', async () => {
    const r = await openRig({ simOptions: { replicationLagMs: 60_000 } });
    try {
      await r.converge(chain());
      const load = await r.provider.load({ desired: chain(), records: [...r.records.values()], readRegion: 'europe' }, r.ctx);
      expect(load.views.every((v) => v.live !== undefined)).toBe(true);
      expect(load.diagnostics).toEqual([expect.objectContaining({ severity: 'warning', code: 'nomad.replica-lag' })]);
      expect(load.diagnostics[0]?.summary).toMatch(/NomadAclPolicy readonly not copied yet; ACL role .+ not copied yet/);
      r.sim.setReplicationLag(0);
      expect((await r.provider.load({ desired: chain(), records: [...r.records.values()], readRegion: 'europe' }, r.ctx)).diagnostics).toEqual([]);
      expect(r.reporter.events.find((e) => e.code === 'nomad.replica.in-sync')?.message).toContain('has every ACL policy and ACL role of the authoritative region');
    } finally {
      await r.close();
    }
  });
});

