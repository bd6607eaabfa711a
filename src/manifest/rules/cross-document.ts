import type { Diagnostic } from '../../diagnostics/types.js';
import { KIND_DEFINITIONS } from '../../kinds/registry.js';
import { checkLoginTests } from '../../login/login-tests.js';
import { SETTINGS_KIND } from '../../model/kinds.js';
import { DocDiagnostics, where } from './context.js';
import type { LoadedDoc } from './context.js';

/** Rules that need every document of the run: one Settings, unique names, then each kind's own (`docs` in file order). */
export function checkAcrossDocuments(docs: readonly LoadedDoc[], out: Diagnostic[]): void {
  const byAddress = new Map<string, LoadedDoc>();
  let settings: LoadedDoc | undefined;

  for (const doc of docs) {
    const d = new DocDiagnostics(doc, out);
    if (doc.kind === SETTINGS_KIND) {
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
    if (first && (first.origin || doc.origin)) {
      // The generated one carries the finding: the set is where a name was made that is taken.
      const [generated, other] = doc.origin ? [doc, first] : [first, doc];
      const otherWhere = other.origin ? `by NoCodeWorkspaceSet/${other.origin.set} (${where(other.tree.range)})` : `at ${where(other.tree.positions['/name'] ?? other.tree.range)}`;
      new DocDiagnostics(generated, out).error(
        'workspace-set.name-collision',
        '/name',
        `the set generates ${doc.kind} "${doc.name}", which is also defined ${otherWhere}`,
        'Names are unique per kind: remove the hand-written document (the set now makes it), or change `template.name` or the item so the names differ.',
      );
      continue;
    }
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
  }
  const sinkFor = (doc: LoadedDoc): DocDiagnostics => new DocDiagnostics(doc, out);
  for (const def of KIND_DEFINITIONS) def.checkAcross?.(docs, sinkFor);
  checkLoginTests(docs, sinkFor);
}
