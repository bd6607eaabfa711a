import type { SecretInput } from '../../model/secret-ref.js';

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

declare module '../../model/specs.js' {
  interface SpecByKind {
    NomadAuthMethod: NomadAuthMethodSpec;
  }
}
