import type { Diagnostic } from '../../../diagnostics/types.js';
import type { DesiredObject } from '../../../model/desired.js';
import { presence, type Known } from '../../../providers/nomad/known-names.js';

/*
 * A role's references checked live at plan time, against the policies' names (their load's `known`).
 */

/**
 * Every policy a role names must exist when the role is written (Nomad: 400 `cannot find policy <n>`),
 * and a policy deleted while a role keeps it leaves the role with a dangling link that makes its next
 * update fail (src/sandbox/nomad/SPEC.md "ACL policies"). Both are refused before anything is sent.
 */
export function checkRolePolicies(roles: readonly DesiredObject<'NomadAclRole'>[], policies: Known): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const role of roles) {
    role.spec.policies.forEach((policy, i) => {
      const state = presence(policies, policy);
      if (state === 'ok') return;
      const range = role.positions[`/spec/policies/${i}`] ?? role.range;
      out.push(
        state === 'deleted'
          ? {
              severity: 'error',
              code: 'nomad.acl-role.policy-deleted',
              summary: `NomadAclPolicy/${policy} is deleted by this plan (its manifest is gone), but NomadAclRole/${role.name} still uses it`,
              detail: `remove ${policy} from the role's policies, or restore the NomadAclPolicy document ${policy}; Nomad would leave the role pointing at a missing policy`,
              range,
            }
          : {
              severity: 'error',
              code: 'nomad.acl-role.unknown-policy',
              summary: `NomadAclRole/${role.name}: policy ${policy} is neither in the manifests nor in Nomad`,
              detail: `add a NomadAclPolicy document named ${policy}, or name an existing policy (Nomad refuses a role whose policy does not exist)`,
              range,
            },
      );
    });
  }
  return out;
}

/** A live role's name and the policies it links, as the role list gives them. */
export interface LiveRoleLinks {
  Name: string;
  Policies: readonly { Name: string }[];
}

/**
 * A role converge does not manage that links a policy this plan deletes keeps a dangling link, and its
 * next update fails `cannot find policy` (src/sandbox/nomad/SPEC.md "ACL policies"). Not converge's to
 * refuse (the role is someone else's), so a warning naming both.
 */
export function unmanagedRoleLinks(live: readonly LiveRoleLinks[], roles: Known, policies: Known): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const role of live) {
    if (roles.desired.has(role.Name) || roles.deleting.has(role.Name)) continue;
    for (const link of role.Policies) {
      if (!policies.deleting.has(link.Name)) continue;
      out.push({
        severity: 'warning',
        code: 'nomad.acl-policy.linked-by-unmanaged-role',
        summary: `NomadAclPolicy/${link.Name} is deleted by this plan, but the role ${role.Name} (not managed by converge) links it`,
        detail: `Nomad keeps the link dangling and refuses the role's next update until ${link.Name} is removed from it: \`nomad acl role update\` the role ${role.Name}, or keep the policy`,
      });
    }
  }
  return out;
}
