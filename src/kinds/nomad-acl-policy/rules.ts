import type { RuleSink } from '../rule-sink.js';
import { checkDescriptionBytes } from '../nomad-description.js';
import { checkPolicyHcl } from './policy-hcl.js';
import { rulesSpanRange } from './rules-position.js';
import type { NomadAclPolicySpec } from './spec.js';

/** Each JobACL field needs the one before it (nomad/structs/acl.go ACLPolicy.Validate). */
const JOB_ACL_CHAIN = [
  ['jobId', 'namespace'],
  ['group', 'jobId'],
  ['task', 'group'],
] as const;

/** Nomad's ACL policy validation (nomad/structs/acl.go ACLPolicy.Validate, acl/policy.go Parse), offline. */
export function checkAclPolicy(d: RuleSink, spec: NomadAclPolicySpec): void {
  if (d.doc.name === 'self') {
    d.error(
      'nomad.acl-policy.name-self',
      '/name',
      'an ACL policy cannot be named "self" through the Nomad HTTP API',
      'Nomad serves the calling token\'s own policies at /v1/acl/policy/self, so such a policy can be neither read, written nor deleted: choose another name.',
    );
  }
  checkDescriptionBytes(d, 'nomad.acl-policy.description-too-long', spec.description);
  const job = spec.jobAcl;
  if (job) {
    for (const [field, needs] of JOB_ACL_CHAIN) {
      if (nonEmpty(job[field]) && !nonEmpty(job[needs])) {
        d.error('nomad.acl-policy.job-acl', `/spec/jobAcl/${field}`, `\`spec.jobAcl.${field}\` needs \`spec.jobAcl.${needs}\``, `Nomad refuses a JobACL with ${field} but no ${needs}: add ${needs}, or remove ${field}.`);
      }
    }
  }
  const value = d.range('/spec/rules');
  const style = d.doc.tree.scalarStyle['/spec/rules'];
  for (const p of checkPolicyHcl(spec.rules)) {
    d.add(p.severity, p.severity === 'error' ? 'nomad.acl-policy.rules' : 'nomad.acl-policy.rules-warning', rulesSpanRange(value, style, spec.rules, p), `rules: ${p.summary}`, p.detail);
  }
}

const nonEmpty = (s: string | undefined): boolean => s !== undefined && s !== '';
