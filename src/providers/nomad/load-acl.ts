import type { Diagnostic } from '../../diagnostics/types.js';
import { boundObject } from '../../kinds/nomad-binding-rule/bound-object.js';
import type { AnyDesired, DesiredObject } from '../../model/desired.js';
import type { Kind } from '../../model/kinds.js';
import type { StateRecord } from '../../state/types.js';
import type { ObjectView } from '../provider.js';
import { checkBindTargets, checkRolePolicies, knownNames, unmanagedRoleLinks, type Known } from './acl-reference-checks.js';
import type { ReplicaItem } from './kind-remote.js';
import type { CallOptions } from './client.js';

import { NOMAD_REMOTES } from './remotes.js';
import type { NomadSession } from './session.js';

export const isPolicy = (o: AnyDesired): o is DesiredObject<'NomadAclPolicy'> => o.kind === 'NomadAclPolicy';
export const isRole = (o: AnyDesired): o is DesiredObject<'NomadAclRole'> => o.kind === 'NomadAclRole';
export const isRule = (o: AnyDesired): o is DesiredObject<'NomadBindingRule'> => o.kind === 'NomadBindingRule';

export interface AclLoad {
  views: ObjectView[];
  diagnostics: Diagnostic[];
  /** Known role and policy names; undefined when nothing needed them (so nothing was listed). */
  roles?: Known;
  policies?: Known;
  /** The lists as read, for the replica comparison (`--region`); absent when not read. */
  replica: { NomadAclPolicy?: ReplicaItem[]; NomadAclRole?: ReplicaItem[] };
}

/**
 * Policies and roles, each listed only when a document, a record, a role (for its policies) or a
 * binding rule (for its bind name) needs them, then the checks that need live names: a role's policies
 * and a rule's role or policy must exist somewhere and not be deleted by this plan.
 */
export async function loadAcl(session: NomadSession, desired: readonly AnyDesired[], records: readonly StateRecord[], call: CallOptions): Promise<AclLoad> {
  const policies = desired.filter(isPolicy);
  const roles = desired.filter(isRole);
  const rules = desired.filter(isRule);
  const policyRecords = records.filter((r) => r.kind === 'NomadAclPolicy');
  const roleRecords = records.filter((r) => r.kind === 'NomadAclRole');
  const binds = (kind: Kind): boolean => rules.some((r) => boundObject(r.spec)?.kind === kind);
  const out: AclLoad = { views: [], diagnostics: [], replica: {} };
  if (policies.length > 0 || policyRecords.length > 0 || roles.length > 0 || binds('NomadAclPolicy')) {
    const p = await NOMAD_REMOTES.NomadAclPolicy.load(session, policies, policyRecords, call);
    out.views.push(...p.views);
    out.policies = knownNames(policies, policyRecords, p.liveNames);
    out.replica.NomadAclPolicy = p.replica;
    out.diagnostics.push(...checkRolePolicies(roles, out.policies));
  }
  // Deleting a policy: roles converge does not manage may link it too (warned about below).
  const deletingPolicies = out.policies?.deleting.size ?? 0;
  if (roles.length > 0 || roleRecords.length > 0 || binds('NomadAclRole') || deletingPolicies > 0) {
    const r = await NOMAD_REMOTES.NomadAclRole.load(session, roles, roleRecords, call);
    out.views.push(...r.views);
    out.roles = knownNames(roles, roleRecords, r.liveNames);
    out.replica.NomadAclRole = r.replica;
    if (out.policies) out.diagnostics.push(...unmanagedRoleLinks(r.live, out.roles, out.policies));
  }
  out.diagnostics.push(...checkBindTargets(rules, out.roles, out.policies));
  return out;
}
