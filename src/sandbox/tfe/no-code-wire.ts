import type { NoCodeModule, Store, VariableOption } from './model.js';
import { orgRef } from './org-wire.js';

/** No-code module documents, shaped as the NC response sample (docs/reference/hcp-terraform-api.md §1.1, §1.3). */

export function noCodeModuleResource(store: Store, n: NoCodeModule): unknown {
  return {
    id: n.id,
    type: 'no-code-modules',
    // Only two attributes (docs/reference/hcp-terraform-api.md §1.1).
    attributes: { enabled: n.enabled, 'version-pin': n.versionPin },
    relationships: {
      organization: orgRef(store),
      'registry-module': {
        data: { id: n.registryModuleId, type: 'registry-modules' },
        links: { related: `/api/v2/registry-modules/${n.registryModuleId}` },
      },
      'variable-options': { data: n.options.map((o) => ({ id: o.id, type: 'variable-options' })) },
    },
    links: { self: `/api/v2/no-code-modules/${n.id}` },
  };
}

/** An included option; its back-reference type is `no-code-allowed-modules` (docs/reference/hcp-terraform-api.md §1.3). */
export function variableOptionResource(n: NoCodeModule, o: VariableOption): unknown {
  return {
    id: o.id,
    type: 'variable-options',
    attributes: { 'variable-name': o.variableName, 'variable-type': o.variableType, options: o.options },
    relationships: { 'no-code-allowed-module': { data: { id: n.id, type: 'no-code-allowed-modules' } } },
  };
}
