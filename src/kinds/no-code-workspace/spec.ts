import type { SecretInput } from '../../model/secret-ref.js';

export interface WorkspaceVariableSpec {
  key: string;
  /** As written: numbers and booleans are text on the wire, and `normalise` turns them into the text as written. */
  value?: SecretInput | number | boolean;
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

declare module '../../model/specs.js' {
  interface SpecByKind {
    NoCodeWorkspace: NoCodeWorkspaceSpec;
  }
}
