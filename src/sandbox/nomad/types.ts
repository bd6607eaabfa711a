/*
 * The simulator's own records, field names as on the wire (written from docs/reference/nomad-api.md, never
 * shared with converge's client). Records are replaced, never mutated, so a replication snapshot can hold them.
 */

export interface ClientAssertionKey {
  PemKey: string;
  PemKeyFile: string;
  KeyIDHeader: string;
  PemCert: string;
  PemCertFile: string;
  KeyID: string;
}

/** OIDCClientAssertion (1.10.0, docs/reference/nomad-api.md §1.2). ClientSecret is server-only, copied from OIDCClientSecret. */
export interface ClientAssertion {
  KeySource: string;
  Audience: string[] | null;
  PrivateKey: ClientAssertionKey | null;
  ExtraHeaders: Record<string, string> | null;
  KeyAlgorithm: string;
  ClientSecret: string;
}

export interface AuthMethodConfig {
  JWTValidationPubKeys: string[] | null;
  JWKSURL: string;
  OIDCDiscoveryURL: string;
  OIDCClientID: string;
  OIDCClientSecret: string;
  OIDCClientAssertion: ClientAssertion | null;
  OIDCEnablePKCE: boolean;
  OIDCDisableUserInfo: boolean;
  OIDCScopes: string[] | null;
  BoundAudiences: string[] | null;
  BoundIssuer: string[] | null;
  AllowedRedirectURIs: string[] | null;
  DiscoveryCaPem: string[] | null;
  JWKSCACert: string;
  SigningAlgs: string[] | null;
  /** Nanoseconds. */
  ExpirationLeeway: number;
  NotBeforeLeeway: number;
  ClockSkewLeeway: number;
  ClaimMappings: Record<string, string> | null;
  ListClaimMappings: Record<string, string> | null;
  VerboseLogging: boolean;
}

export interface AuthMethod {
  Name: string;
  Type: string;
  TokenLocality: string;
  TokenNameFormat: string;
  /** Nanoseconds. */
  MaxTokenTTL: number;
  Default: boolean;
  Config: AuthMethodConfig | null;
  Hash: string;
  CreateTime: bigint;
  ModifyTime: bigint;
  CreateIndex: number;
  ModifyIndex: number;
}

export interface BindingRule {
  ID: string;
  Description: string;
  AuthMethod: string;
  Selector: string;
  BindType: string;
  BindName: string;
  Hash: string;
  CreateTime: bigint;
  ModifyTime: bigint;
  CreateIndex: number;
  ModifyIndex: number;
}

export interface VariableLock {
  ID: string;
  /** Nanoseconds. */
  TTL: number;
  LockDelay: number;
  /** Wall-clock ms when the TTL runs out unless renewed; the lock clears LockDelay later (docs/reference/nomad-api.md §9). */
  ttlEndsAt: number;
}

export interface Variable {
  Namespace: string;
  Path: string;
  Items: Record<string, string>;
  Lock: VariableLock | null;
  CreateIndex: number;
  CreateTime: bigint;
  ModifyIndex: number;
  ModifyTime: bigint;
}

/** Where a workload-identity policy applies (nomad/structs/acl.go JobACL). */
export interface JobAcl {
  Namespace: string;
  JobID: string;
  Group: string;
  Task: string;
}

/** ACLPolicy as stored: no times, unlike auth methods (nomad/structs/acl.go ACLPolicy). */
export interface AclPolicy {
  Name: string;
  Description: string;
  /** HCL or JSON text, stored exactly as sent. */
  Rules: string;
  JobACL: JobAcl | null;
  Hash: string;
  CreateIndex: number;
  ModifyIndex: number;
}

/** ACLRole as stored (nomad/structs/acl.go ACLRole); policy links by name only. */
export interface AclRole {
  ID: string;
  Name: string;
  Description: string;
  Policies: Array<{ Name: string }>;
  Hash: string;
  CreateIndex: number;
  ModifyIndex: number;
}
