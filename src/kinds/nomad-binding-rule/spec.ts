export interface NomadBindingRuleSpec {
  authMethod: string;
  description?: string;
  selector?: string;
  bindType: 'role' | 'policy' | 'management';
  bindName?: string;
}

declare module '../../model/specs.js' {
  interface SpecByKind {
    NomadBindingRule: NomadBindingRuleSpec;
  }
}
