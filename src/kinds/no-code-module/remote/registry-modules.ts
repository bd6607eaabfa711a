import type { JsonApiTransport } from '../../../providers/tfe/jsonapi-transport.js';
import { relOne } from '../../../providers/tfe/wire.js';
import { parseRegistryModule, type RegistryModuleWire } from './wire.js';

/** Private registry modules of the organization (docs/reference/hcp-terraform-api.md §1.5). */
export class RegistryModulesClient {
  constructor(private readonly api: JsonApiTransport) {}

  /** All registry modules of the organization with their no-code module ids: one paginated list. */
  async listRegistryModules(): Promise<RegistryModuleWire[]> {
    const what = `registry modules of ${this.api.organization}`;
    const { data, included } = await this.api.listAll(`/organizations/${this.api.org}/registry-modules`, { include: 'no-code-modules' }, { what });
    // The relationship data names the no-code module (docs/reference/hcp-terraform-api.md §1.5); should it be missing, the
    // included no-code modules point back through their `registry-module` relationship.
    const back = new Map<string, string>();
    for (const r of included) {
      const rm = relOne(r, 'registry-module');
      if (rm && (r.id.startsWith('nocode-') || /^no-code-(allowed-)?modules?$/.test(r.type)) && !back.has(rm.id)) back.set(rm.id, r.id);
    }
    return data.map((r) => {
      const m = parseRegistryModule(r, what);
      const fromIncluded = back.get(m.id);
      return m.noCodeModuleIds.length === 0 && fromIncluded !== undefined ? { ...m, noCodeModuleIds: [fromIncluded] } : m;
    });
  }

  async showRegistryModule(namespace: string, name: string, provider: string): Promise<RegistryModuleWire | null> {
    const what = `registry module ${namespace}/${name}/${provider}`;
    const path = `/organizations/${this.api.org}/registry-modules/private/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}/${encodeURIComponent(provider)}`;
    const doc = await this.api.oneOrNull(path, undefined, { what });
    return doc === null ? null : parseRegistryModule(doc.data, what);
  }

  /** Usable versions of a registry module (`version-statuses` with status ok), as listed. */
  async registryModuleVersions(namespace: string, name: string, provider: string): Promise<string[]> {
    const m = await this.showRegistryModule(namespace, name, provider);
    return (m?.versions ?? []).filter((v) => v.status === 'ok').map((v) => v.version);
  }
}
