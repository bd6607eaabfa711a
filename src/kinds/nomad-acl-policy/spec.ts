export interface NomadAclPolicyJobAcl {
  namespace?: string;
  jobId?: string;
  group?: string;
  task?: string;
}

export interface NomadAclPolicySpec {
  description?: string;
  /** Nomad ACL policy HCL, kept as written. */
  rules: string;
  /** A workload-identity policy: applied to the tasks it names instead of to tokens. */
  jobAcl?: NomadAclPolicyJobAcl;
}

declare module '../../model/specs.js' {
  interface SpecByKind {
    NomadAclPolicy: NomadAclPolicySpec;
  }
}
