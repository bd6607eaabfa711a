import { manifestName, NameAllocator } from '../../../providers/export-names.js';
import type { NomadBindingRuleSpec } from '../spec.js';
import { bindingRuleSpecFromWire } from './mapping.js';
import type { WireBindingRule } from './wire.js';

/**
 * Binding rules have no name in Nomad, only a server-made UUID (docs/reference/nomad-api.md §10); converge needs one.
 * It is derived from what the rule does, `<authMethod>-<bindName>` (`-management` for that bind
 * type), made manifest-safe; repeats get `-2`, `-3`, … in a stable order (by the derived name, then
 * selector, description and ID), so exporting twice gives the same names.
 */
export function bindingRuleDocuments(rules: readonly WireBindingRule[]): { name: string; spec: NomadBindingRuleSpec; id: string }[] {
  const candidates = rules.map((r) => {
    const spec = bindingRuleSpecFromWire(r);
    const what = spec.bindType === 'management' ? 'management' : (spec.bindName ?? spec.bindType);
    return { base: manifestName(`${spec.authMethod}-${what}`, 'rule'), spec, r };
  });
  candidates.sort(
    (a, b) =>
      cmp(a.base, b.base) || cmp(a.r.Selector, b.r.Selector) || cmp(a.r.Description, b.r.Description) || cmp(a.r.ID, b.r.ID),
  );
  const names = new NameAllocator();
  return candidates.map((c) => ({ name: names.take(c.base), spec: c.spec, id: c.r.ID }));
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
