import type { Diagnostic } from '../../diagnostics/types.js';
import { boundObject, isTemplatedBindName } from '../../kinds/nomad-binding-rule/bound-object.js';
import type { DesiredObject } from '../../model/desired.js';
import type { StateRecord } from '../../state/types.js';
import type { Note } from '../../plan/codes.js';
import { checkBindNameTemplate } from '../../kinds/nomad-binding-rule/bind-name-template.js';

/**
 * What converge can name at plan time: the documents of the run plus what Nomad holds, less what this
 * very plan deletes (owned, recorded, but no longer in the manifests).
 */
export interface Known {
  desired: ReadonlySet<string>;
  live: ReadonlySet<string>;
  deleting: ReadonlySet<string>;
}

export function knownNames(desired: readonly { name: string }[], records: readonly StateRecord[], live: ReadonlySet<string>): Known {
  const names = new Set(desired.map((d) => d.name));
  return { desired: names, live, deleting: new Set(records.map((r) => r.name).filter((n) => !names.has(n))) };
}

type Presence = 'ok' | 'deleted' | 'missing';

function presence(known: Known, name: string): Presence {
  if (known.desired.has(name)) return 'ok';
  if (known.deleting.has(name)) return 'deleted';
  return known.live.has(name) ? 'ok' : 'missing';
}

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

/** Nomad fills the template from the login's claims; nothing to check before a login. */
export const TEMPLATED_BIND_NOTE: Note = { code: 'templated-bind-name' };

/**
 * A role or policy binding rule whose bind name exists nowhere grants nothing at login (Nomad does not
 * check it on write: docs/reference/nomad-api.md §10, src/sandbox/nomad/SPEC.md), which is almost surely a typo: an
 * error at the bind name. Templated names are exempt (a note is shown instead).
 */
export function checkBindTargets(rules: readonly DesiredObject<'NomadBindingRule'>[], roles: Known | undefined, policies: Known | undefined): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const rule of rules) {
    const target = boundObject(rule.spec);
    if (!target) continue;
    const known = target.kind === 'NomadAclRole' ? roles : policies;
    if (!known) continue;
    const state = presence(known, target.name);
    if (state === 'ok') continue;
    const word = target.kind === 'NomadAclRole' ? 'role' : 'policy';
    const range = rule.positions['/spec/bindName'] ?? rule.range;
    out.push(
      state === 'deleted'
        ? {
            severity: 'error',
            code: 'nomad.binding-rule.bind-target-deleted',
            summary: `${target.kind}/${target.name} is deleted by this plan (its manifest is gone), but NomadBindingRule/${rule.name} still binds it`,
            detail: `remove NomadBindingRule/${rule.name} too, point bindName at another ${word}, or restore the ${target.kind} document ${target.name}`,
            range,
          }
        : {
            severity: 'error',
            code: 'nomad.binding-rule.unknown-bind-target',
            summary: `NomadBindingRule/${rule.name}: ${word} ${target.name} is neither in the manifests nor in Nomad`,
            detail: `add a ${target.kind} document named ${target.name}, or set bindName to an existing ${word}; a rule binding a missing ${word} grants nothing at login`,
            range,
          },
    );
  }
  return out;
}

/** A live auth method's name and claim mappings, as a GET gives them. */
export interface LiveMethodMappings {
  Name: string;
  Config: { ClaimMappings: Readonly<Record<string, string>> | null } | null;
}

/**
 * A templated bind name whose auth method exists only in Nomad: its `value.<field>` variables against
 * the live method's ClaimMappings values (docs/reference/nomad-bind-names.md). The manifest loader checks
 * the rest of the template, and methods that are documents of the run.
 */
export function checkLiveMethodBindNames(rules: readonly DesiredObject<'NomadBindingRule'>[], methods: ReadonlyMap<string, LiveMethodMappings>): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const rule of rules) {
    const method = methods.get(rule.spec.authMethod);
    if (!method || !isTemplatedRule(rule)) continue;
    const template = rule.spec.bindName as string;
    const anyMethod = new Set(checkBindNameTemplate(template).map((p) => p.summary));
    for (const p of checkBindNameTemplate(template, Object.values(method.Config?.ClaimMappings ?? {}))) {
      if (anyMethod.has(p.summary)) continue;
      out.push({
        severity: 'error',
        code: 'nomad.binding-rule.bind-name-template',
        summary: `NomadBindingRule/${rule.name}: ${p.summary} (auth method ${method.Name} in Nomad)`,
        detail: `${p.detail} Nomad accepts the rule, but every login that matches it would fail, whatever other rules grant.`,
        range: rule.positions['/spec/bindName'] ?? rule.range,
      });
    }
  }
  return out;
}

export function isTemplatedRule(rule: DesiredObject<'NomadBindingRule'>): boolean {
  return rule.spec.bindType !== 'management' && rule.spec.bindName !== undefined && isTemplatedBindName(rule.spec.bindName);
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
