import type { Address } from '../model/kinds.js';
import type { ObjectView } from '../providers/provider.js';

/*
 * The cross-kind references the engine must respect when a change fails: a binding rule needs its
 * auth method, a no-code workspace needs its module (KINDS order puts dependencies first).
 * Read from the desired spec; for deletes (no manifest) from the live fields or the state record,
 * where providers keep the same manifest-style paths (`authMethod`, `module`).
 */

function stringField(view: ObjectView, path: string): string | undefined {
  const v = view.live?.fields[path] ?? view.record?.applied[path];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

export function dependencyOf(view: ObjectView): Address | undefined {
  const d = view.desired?.object;
  switch (view.kind) {
    case 'NomadBindingRule': {
      const name = d?.kind === 'NomadBindingRule' ? d.spec.authMethod : stringField(view, 'authMethod');
      return name === undefined ? undefined : { kind: 'NomadAuthMethod', name };
    }
    case 'NoCodeWorkspace': {
      const name = d?.kind === 'NoCodeWorkspace' ? d.spec.module : stringField(view, 'module');
      return name === undefined ? undefined : { kind: 'NoCodeModule', name };
    }
    case 'NomadAuthMethod':
    case 'NoCodeModule':
      return undefined;
  }
}
