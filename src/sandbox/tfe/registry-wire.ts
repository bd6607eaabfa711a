import type { ModuleVersion, NoCodeModule, RegistryModule, Store } from './model.js';
import { orgRef } from './org-wire.js';

/** Private registry module documents (docs/reference/hcp-terraform-api.md §4 sample, plus `no-code` and `no-code-modules`). */

export const modulePath = (m: RegistryModule): string =>
  `/api/v2/organizations/${m.namespace}/registry-modules/private/${m.namespace}/${m.name}/${m.provider}`;

export function registryModuleResource(store: Store, m: RegistryModule, withNoCode: boolean): unknown {
  const ncm = store.noCodeOf(m.id);
  const relationships: Record<string, unknown> = {
    organization: orgRef(store),
    'tag-bindings': { links: { related: `/api/v2/registry-modules/${m.id}/tag-bindings` } },
  };
  // `relationships.no-code-modules.data` is filled when asked with include=no-code-modules: 0 or 1 entry
  // (docs/reference/hcp-terraform-api.md §1.5; the provider assumes at most one).
  if (withNoCode) relationships['no-code-modules'] = { data: ncm ? [{ id: ncm.id, type: 'no-code-modules' }] : [] };
  return {
    id: m.id,
    type: 'registry-modules',
    attributes: {
      name: m.name,
      provider: m.provider,
      namespace: m.namespace,
      'registry-name': 'private',
      status: m.versions.some((v) => v.status === 'ok') ? 'setup_complete' : 'pending',
      'version-statuses': m.versions.map((v) => ({ version: v.version, status: v.status })),
      'version-tags': [],
      'created-at': m.createdAt,
      'updated-at': m.updatedAt,
      'vcs-repo': null,
      'publishing-mechanism': 'non_vcs',
      'test-config': null,
      'no-code': ncm !== undefined,
      permissions: { 'can-delete': true, 'can-resync': true, 'can-retry': true },
    },
    relationships,
    links: { self: modulePath(m) },
  };
}

export function moduleVersionResource(m: RegistryModule, v: ModuleVersion): unknown {
  return {
    id: v.id,
    type: 'registry-module-versions',
    attributes: { source: 'tfe-api', status: v.status === 'ok' ? 'ok' : 'pending', version: v.version, 'created-at': v.createdAt, 'updated-at': v.updatedAt },
    relationships: { 'registry-module': { data: { id: m.id, type: 'registry-modules' } } },
    links: { self: `${modulePath(m)}/version?module_version=${encodeURIComponent(v.version)}` },
  };
}

/** `registry-module-variables` of a version (docs/reference/hcp-terraform-api.md §1.3: name,type,description,required,sensitive,options,has-global). */
export function moduleVariableResources(store: Store, ncm: NoCodeModule, v: ModuleVersion): unknown[] {
  return v.inputs.map((input, i) => {
    const option = ncm.options.find((o) => o.variableName === input.name);
    return {
      id: `${v.id}-var-${i}`,
      type: 'registry-module-variables',
      attributes: {
        name: input.name,
        type: input.type,
        description: input.description ?? '',
        required: input.required ?? false,
        sensitive: input.sensitive ?? false,
        options: option ? option.options : [],
        'has-global': false,
      },
    };
  });
}
