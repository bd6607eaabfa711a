import type { JsonValue } from '../../model/json.js';

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
  /** How a version change rolls out over the module's workspaces (converge only; nothing is sent). */
  upgrade?: { maxConcurrent?: number; maxFailures?: number };
}

declare module '../../model/specs.js' {
  interface SpecByKind {
    NoCodeModule: NoCodeModuleSpec;
  }
}
