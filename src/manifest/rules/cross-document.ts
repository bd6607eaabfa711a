import type { Diagnostic } from '../../diagnostics/types.js';
import type { NoCodeModuleSpec, NoCodeWorkspaceSpec, NomadAuthMethodSpec } from '../../model/specs.js';
import { didYouMean } from '../suggest.js';
import { DocDiagnostics, where } from './context.js';
import type { LoadedDoc } from './context.js';
import { checkWorkspaceOptions } from './no-code.js';

/** Rules that need every document of the run: uniqueness, the single default, references. `docs` is in file order. */
export function checkAcrossDocuments(docs: readonly LoadedDoc[], out: Diagnostic[]): void {
  const byAddress = new Map<string, LoadedDoc>();
  let settings: LoadedDoc | undefined;
  let defaultMethod: LoadedDoc | undefined;
  const modules = new Map<string, LoadedDoc>();

  for (const doc of docs) {
    const d = new DocDiagnostics(doc, out);
    if (doc.kind === 'Settings') {
      if (settings) {
        d.error(
          'manifest.settings-duplicate',
          '/kind',
          `more than one Settings document (the first is at ${where(settings.tree.range)})`,
          'Keep all settings in one Settings document.',
        );
      } else settings = doc;
      continue;
    }
    if (doc.name === '') continue;
    const address = `${doc.kind}/${doc.name}`;
    const first = byAddress.get(address);
    if (first) {
      d.error(
        'manifest.duplicate',
        '/name',
        `${doc.kind} "${doc.name}" is defined twice (also at ${where(first.tree.positions['/name'] ?? first.tree.range)})`,
        'Names are unique per kind across all manifest files; rename or remove one of them.',
      );
      continue;
    }
    byAddress.set(address, doc);
    if (doc.kind === 'NoCodeModule') modules.set(doc.name, doc);
    if (doc.kind === 'NomadAuthMethod' && doc.schemaValid && (doc.value.spec as NomadAuthMethodSpec).default === true) {
      if (defaultMethod) {
        // reference nomad-api.md §4: only one default across all types; Nomad answers 400 "default method already exists".
        d.error(
          'nomad.auth-method.default',
          '/spec/default',
          `only one auth method may be the default: "${defaultMethod.name}" already is (${where(defaultMethod.tree.positions['/spec/default'] ?? defaultMethod.tree.range)})`,
          'Nomad allows a single default auth method across all types; remove `default: true` from one of them.',
        );
      } else defaultMethod = doc;
    }
  }

  for (const doc of docs) {
    if (doc.kind !== 'NoCodeWorkspace' || !doc.schemaValid) continue;
    const d = new DocDiagnostics(doc, out);
    const spec = doc.value.spec as NoCodeWorkspaceSpec;
    const module = modules.get(spec.module);
    if (!module) {
      const guess = didYouMean(spec.module, [...modules.keys()]);
      d.error(
        'nocode.workspace.module',
        '/spec/module',
        `module "${spec.module}" is not defined by any NoCodeModule document`,
        (guess ? `Did you mean "${guess}"? ` : '') + 'A workspace names the NoCodeModule document (its `name`) it is provisioned from.',
      );
      continue;
    }
    if (module.schemaValid) checkWorkspaceOptions(d, spec, module.value.spec as NoCodeModuleSpec);
  }
}
