import { normalizePolicyHcl } from '../../kinds/nomad-acl-policy/policy-hcl.js';
import type { NomadAclPolicyJobAcl, NomadAclPolicySpec } from '../../kinds/nomad-acl-policy/spec.js';
import type { NomadAclRoleSpec } from '../../kinds/nomad-acl-role/spec.js';
import { putString, type Fields } from './mapping.js';
import type { WireAclPolicy, WireAclPolicyRequest, WireAclRole, WireAclRoleRequest, WireJobAcl } from './wire.js';

/*
 * ACL policies and roles, wire ↔ manifest, the same way as mapping.ts: both sides of the diff go
 * through `aclPolicyFields` / `aclRoleFields`, with manifest-style paths (`rules`, `jobAcl.jobId`,
 * `policies`). Empty strings are absent, as Nomad stores them (Go zero values).
 */

const JOB_ACL_KEYS = [
  ['namespace', 'Namespace'],
  ['jobId', 'JobID'],
  ['group', 'Group'],
  ['task', 'Task'],
] as const;

export function aclPolicyFields(spec: NomadAclPolicySpec): Fields {
  // Nomad stores Rules byte for byte (src/sandbox/nomad/SPEC.md "ACL policies"); trailing blanks and
  // line endings never change what a policy grants, and YAML block scalars add or drop a final newline
  // (`|` versus `|-`), so those are compared loosely. Everything else is compared as written.
  const out: Fields = { rules: normalizePolicyHcl(spec.rules) };
  putString(out, 'description', spec.description);
  for (const [key] of JOB_ACL_KEYS) putString(out, `jobAcl.${key}`, spec.jobAcl?.[key]);
  return out;
}

export function aclPolicySpecFromWire(p: WireAclPolicy): NomadAclPolicySpec {
  const spec: NomadAclPolicySpec = { rules: p.Rules };
  if (p.Description !== '') spec.description = p.Description;
  if (p.JobACL) {
    const job: NomadAclPolicyJobAcl = {};
    for (const [key, wire] of JOB_ACL_KEYS) if (p.JobACL[wire] !== '') job[key] = p.JobACL[wire];
    if (Object.keys(job).length > 0) spec.jobAcl = job;
  }
  return spec;
}

export function liveAclPolicyFields(p: WireAclPolicy): Fields {
  return aclPolicyFields(aclPolicySpecFromWire(p));
}

/** The whole policy, always: Nomad does not merge, an omitted field is cleared. Rules go as written. */
export function aclPolicyRequest(name: string, spec: NomadAclPolicySpec): WireAclPolicyRequest {
  const job = spec.jobAcl;
  const jobAcl: WireJobAcl | null = job ? { Namespace: job.namespace ?? '', JobID: job.jobId ?? '', Group: job.group ?? '', Task: job.task ?? '' } : null;
  return { Name: name, Description: spec.description ?? '', Rules: spec.rules, JobACL: jobAcl };
}

export function aclRoleFields(spec: NomadAclRoleSpec): Fields {
  // A role grants the union of its policies, so their order means nothing; Nomad drops repeats
  // (nomad/acl_endpoint.go UpsertRoles). Compared as a sorted set.
  const out: Fields = { policies: [...new Set(spec.policies)].sort() };
  putString(out, 'description', spec.description);
  return out;
}

export function aclRoleSpecFromWire(r: WireAclRole): NomadAclRoleSpec {
  return { ...(r.Description !== '' ? { description: r.Description } : {}), policies: r.Policies.map((p) => p.Name) };
}

export function liveAclRoleFields(r: WireAclRole): Fields {
  return aclRoleFields(aclRoleSpecFromWire(r));
}

/** Every field, always (an update replaces the role). Policies in the manifest's order. */
export function aclRoleRequest(name: string, spec: NomadAclRoleSpec): WireAclRoleRequest {
  return { Name: name, Description: spec.description ?? '', Policies: [...new Set(spec.policies)].map((n) => ({ Name: n })) };
}
