import { putString, type Fields } from '../../../providers/nomad/mapping.js';
import type { NomadBindingRuleSpec } from '../spec.js';
import type { WireBindingRule, WireBindingRuleRequest } from './wire.js';

// Binding rules, wire ↔ manifest (docs/reference/nomad-api.md §10), through the normalisers of src/providers/nomad/mapping.ts.

/** Normalised fields of a binding rule. Empty description/selector/bindName are absent, like unset. */
export function bindingRuleFields(spec: NomadBindingRuleSpec): Fields {
  const out: Fields = { authMethod: spec.authMethod, bindType: spec.bindType };
  putString(out, 'description', spec.description);
  putString(out, 'selector', spec.selector);
  putString(out, 'bindName', spec.bindName);
  return out;
}

export function bindingRuleSpecFromWire(r: WireBindingRule): NomadBindingRuleSpec {
  return {
    authMethod: r.AuthMethod,
    bindType: r.BindType as NomadBindingRuleSpec['bindType'],
    ...(r.Description ? { description: r.Description } : {}),
    ...(r.Selector ? { selector: r.Selector } : {}),
    ...(r.BindName ? { bindName: r.BindName } : {}),
  };
}

export function liveBindingRuleFields(r: WireBindingRule): Fields {
  return bindingRuleFields(bindingRuleSpecFromWire(r));
}

/** Every field, always: an omitted Description or Selector is cleared on update (§10). */
export function bindingRuleRequest(spec: NomadBindingRuleSpec): WireBindingRuleRequest {
  return {
    AuthMethod: spec.authMethod,
    Description: spec.description ?? '',
    Selector: spec.selector ?? '',
    BindType: spec.bindType,
    // Must be empty for management (§10).
    BindName: spec.bindType === 'management' ? '' : (spec.bindName ?? ''),
  };
}

/** Natural key of a rule for adoption: auth method, selector, bind type and bind name, exactly. */
export function ruleNaturalKey(spec: Pick<NomadBindingRuleSpec, 'authMethod' | 'selector' | 'bindType' | 'bindName'>): string {
  return JSON.stringify([spec.authMethod, spec.selector ?? '', spec.bindType, spec.bindType === 'management' ? '' : (spec.bindName ?? '')]);
}
