import type { DesiredObject } from '../../../model/desired.js';
import type { DesiredView } from '../../../providers/provider.js';
import { bindingRuleFields } from './mapping.js';

export function desiredBindingRuleView(object: DesiredObject<'NomadBindingRule'>): DesiredView {
  return { object, fields: bindingRuleFields(object.spec), secrets: {} };
}
