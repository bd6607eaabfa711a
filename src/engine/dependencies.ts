import { kindDefinition } from '../kinds/registry.js';
import type { Address } from '../model/kinds.js';
import type { ObjectView } from '../providers/provider.js';

/*
 * The cross-kind references the engine must respect when a change fails (a binding rule needs its
 * auth method, a no-code workspace needs its module), as each kind definition declares them.
 * Read from the desired spec; for deletes (no manifest) from the live fields or the state record,
 * where providers keep the same manifest-style paths.
 */

function stringField(view: ObjectView, path: string): string | undefined {
  const v = view.live?.fields[path] ?? view.record?.applied[path];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

export function dependencyOf(view: ObjectView): Address | undefined {
  const ref = kindDefinition(view.kind).reference;
  if (!ref) return undefined;
  const spec = view.desired?.object.spec as Readonly<Record<string, unknown>> | undefined;
  const fromSpec = spec?.[ref.field];
  const name = typeof fromSpec === 'string' ? fromSpec : stringField(view, ref.field);
  return name === undefined ? undefined : { kind: ref.kind, name };
}
