export interface NomadAclRoleSpec {
  description?: string;
  /** Names of ACL policies: NomadAclPolicy documents or policies that exist in Nomad. */
  policies: string[];
}

declare module '../../model/specs.js' {
  interface SpecByKind {
    NomadAclRole: NomadAclRoleSpec;
  }
}
