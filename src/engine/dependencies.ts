import { kindDefinition } from '../kinds/registry.js';
import type { Address } from '../model/kinds.js';
import type { ObjectView } from '../providers/provider.js';

/*
 * The cross-kind references the engine must respect when a change fails (a binding rule needs its
 * auth method and the role or policy it binds, a role needs its policies), as each kind definition
 * declares them. Read from the desired spec; for deletes (no manifest) from the live fields or the
 * state record, where providers keep the same manifest-style paths.
 */

export function dependenciesOf(view: ObjectView): Address[] {
  const references = kindDefinition(view.kind).references;
  if (!references) return [];
  const spec = view.desired?.object.spec as Readonly<Record<string, unknown>> | undefined;
  const fields = spec ?? view.live?.fields ?? view.record?.applied;
  return fields === undefined ? [] : references(fields);
}
