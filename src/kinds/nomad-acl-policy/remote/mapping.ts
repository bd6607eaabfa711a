import { normalizePolicyHcl } from '../policy-hcl.js';
import type { NomadAclPolicyJobAcl, NomadAclPolicySpec } from '../spec.js';
import { putString, type Fields } from '../../../providers/nomad/mapping.js';
import type { WireAclPolicy, WireAclPolicyRequest, WireJobAcl } from './wire.js';

/*
 * ACL policies, wire ↔ manifest, the same way as src/providers/nomad/mapping.ts: both sides of the diff go through
 * `aclPolicyFields`, with manifest-style paths (`rules`, `jobAcl.jobId`). Empty strings are absent, as Nomad stores them (Go zero values).
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
