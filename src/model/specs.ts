import type { SecretInput } from './secret-ref.js';
import type { JsonValue } from './json.js';

/**
 * Desired specs as written in manifests (camelCase, acronyms as words), after schema validation.
 * Optional fields that are absent mean "the server default" and are normalised in each provider's mapping.
 */

export interface NomadAuthMethodConfigSpec {
  oidcDiscoveryUrl?: string;
  oidcClientId?: string;
  oidcClientSecret?: SecretInput;
  oidcDisableUserInfo?: boolean;
  oidcEnablePkce?: boolean;
  oidcScopes?: string[];
  oidcClientAssertion?: {
    keySource: 'nomad' | 'private_key' | 'client_secret';
    audience?: string[];
    keyAlgorithm?: string;
    extraHeaders?: Record<string, string>;
    privateKey?: {
      pemKey?: SecretInput;
      pemKeyFile?: string;
      keyIdHeader?: 'kid' | 'x5t' | 'x5t#S256';
      pemCert?: string;
      pemCertFile?: string;
      keyId?: string;
    };
  };
  jwtValidationPubKeys?: string[];
  jwksUrl?: string;
  jwksCaCert?: string;
  boundAudiences?: string[];
  boundIssuer?: string[];
  allowedRedirectUris?: string[];
  discoveryCaPem?: string[];
  signingAlgs?: string[];
  expirationLeeway?: string;
  notBeforeLeeway?: string;
  clockSkewLeeway?: string;
  claimMappings?: Record<string, string>;
  listClaimMappings?: Record<string, string>;
  verboseLogging?: boolean;
}

export interface NomadAuthMethodSpec {
  type: 'OIDC' | 'JWT';
  tokenLocality: 'local' | 'global';
  /** Go duration syntax, e.g. `1h`, `90m`. */
  maxTokenTtl: string;
  tokenNameFormat?: string;
  default?: boolean;
  config: NomadAuthMethodConfigSpec;
}

export interface NomadBindingRuleSpec {
  authMethod: string;
  description?: string;
  selector?: string;
  bindType: 'role' | 'policy' | 'management';
  bindName?: string;
}

export interface VariableOptionSpec {
  variableName: string;
  variableType: string;
  options?: JsonValue[];
}

export interface NoCodeModuleSpec {
  /** `namespace/name/provider` in the organization's private registry. */
  registryModule: string;
  versionPin?: string;
  enabled?: boolean;
  variableOptions?: VariableOptionSpec[];
}

export interface WorkspaceVariableSpec {
  key: string;
  value?: SecretInput;
  category?: 'terraform' | 'env';
  description?: string;
  hcl?: boolean;
  sensitive?: boolean;
}

export interface NoCodeWorkspaceSpec {
  module: string;
  project?: string;
  description?: string;
  executionMode?: 'remote' | 'agent';
  agentPoolId?: string;
  autoApply?: boolean;
  sourceName?: string;
  sourceUrl?: string;
  variables?: WorkspaceVariableSpec[];
  /** confirm (default auto) governs upgrade runs and first runs; canary picks the workspace upgraded first. */
  upgrade?: { confirm?: 'auto' | 'manual'; canary?: boolean };
  deletion?: 'safe' | 'destroy' | 'orphan';
}

export interface SettingsSpec {
  tfe?: { organization?: string };
  nomad?: { region?: string };
  state?:
    | { backend: 'local'; path?: string }
    | { backend: 'nomad'; path?: string; lockPath?: string; namespace?: string };
}

export interface SpecByKind {
  NomadAuthMethod: NomadAuthMethodSpec;
  NomadBindingRule: NomadBindingRuleSpec;
  NoCodeModule: NoCodeModuleSpec;
  NoCodeWorkspace: NoCodeWorkspaceSpec;
}
