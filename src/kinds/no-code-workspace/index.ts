import { didYouMean } from '../../diagnostics/suggest.js';
import type { NoCodeModuleSpec } from '../no-code-module/spec.js';
import { fieldReference } from '../references.js';
import type { RuleDoc, SinkFor } from '../rule-sink.js';
import type { KindDefinition } from '../types.js';
import { checkNoCodeWorkspace, checkWorkspaceOptions } from './rules.js';
import type { NoCodeWorkspaceSpec } from './spec.js';

export type * from './spec.js';

/** A workspace is provisioned from a NoCodeModule document of the same run, and its variables use the module's options. */
function checkModuleReference<D extends RuleDoc>(docs: readonly D[], sinkFor: SinkFor<D>): void {
  const modules = new Map<string, D>();
  for (const doc of docs) if (doc.kind === 'NoCodeModule' && doc.name !== '' && !modules.has(doc.name)) modules.set(doc.name, doc);
  for (const doc of docs) {
    if (doc.kind !== 'NoCodeWorkspace' || !doc.schemaValid) continue;
    const d = sinkFor(doc);
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

export const noCodeWorkspace: KindDefinition<'NoCodeWorkspace'> = {
  kind: 'NoCodeWorkspace',
  provider: 'tfe',
  remote: () => import('./remote/index.js').then((m) => m.remote),
  // PATCH /workspaces/:id with a new name keeps the id, runs and state (docs/reference/hcp-terraform-api.md §5).
  rename: 'in-place',
  schemaFile: 'no-code-workspace.json',
  exportFile: 'no-code-workspaces.yaml',
  references: fieldReference('module', 'NoCodeModule'),
  check: checkNoCodeWorkspace,
  checkAcross: checkModuleReference,
  secretSites: (spec) =>
    (spec.variables ?? []).map((v, i) => ({ pointer: `/spec/variables/${i}/value`, value: v.value, sensitive: v.sensitive === true, what: `sensitive variable \`${v.key}\`` })),
  // Variable values are text on the wire: an unquoted number is sent as written (`1.10`, not `1.1`;
  // `0128`, not `128`), the way a person reads the manifest, not as YAML's number printed back.
  normalise: (spec, numberSource) =>
    spec.variables
      ? {
          ...spec,
          variables: spec.variables.map((v, i) =>
            typeof v.value === 'number' || typeof v.value === 'boolean' ? { ...v, value: numberSource[`/spec/variables/${i}/value`] ?? String(v.value) } : v,
          ),
        }
      : spec,
};
