import { mapLimit } from '../../../async/map-limit.js';
import type { ExportResult } from '../../../providers/export-types.js';
import { manifestName, NameAllocator } from '../../../providers/export-names.js';
import type { TfeClient } from '../../../providers/tfe/client.js';
import { READ_CONCURRENCY } from '../../../providers/tfe/session.js';
import type { NoCodeModuleSpec, VariableOptionSpec } from '../spec.js';
import { NoCodeModulesClient, type NoCodeModuleRead } from './endpoints.js';
import { registryPath } from './mapping.js';
import { RegistryModulesClient } from './registry-modules.js';
import type { RegistryModuleWire } from './wire.js';

/*
 * `converge export` of no-code modules: one paginated registry-modules list with include=no-code-modules, then
 * one read per no-code module (there is no no-code module list, docs/reference/hcp-terraform-api.md §1.5).
 */

interface ExportedModule {
  name: string;
  path: string;
  read: NoCodeModuleRead;
}

/** Every no-code module as a NoCodeModule document. */
export async function exportModules(client: TfeClient, result: ExportResult): Promise<void> {
  for (const m of await readModules(client)) result.documents.push({ kind: 'NoCodeModule', name: m.name, spec: moduleSpec(m) });
}

/** Private registry modules that have a no-code module, each read once, with a document name. */
async function readModules(client: TfeClient): Promise<ExportedModule[]> {
  const registry = (await new RegistryModulesClient(client).listRegistryModules())
    .filter((m) => m.registryName === 'private' && m.noCodeModuleIds.length > 0)
    .sort((a, b) => cmp(registryPath(a), registryPath(b)));
  const noCodeModules = new NoCodeModulesClient(client);
  const reads = await mapLimit(registry, READ_CONCURRENCY, (m) =>
    noCodeModules.readNoCodeModule(m.noCodeModuleIds[0] as string, { what: `no-code module of ${registryPath(m)}` }),
  );
  const names = moduleNames(registry);
  const out: ExportedModule[] = [];
  registry.forEach((m, i) => {
    const read = reads[i];
    // Deleted between the list and the read.
    if (read) out.push({ name: names.get(m.id) as string, path: registryPath(m), read });
  });
  return out;
}

/**
 * Document names of modules: the registry module's name (`vpc`); when two share it (another
 * provider or namespace), `name-provider`, then `namespace-name-provider`.
 */
export function moduleNames(registry: readonly RegistryModuleWire[]): Map<string, string> {
  const count = (f: (m: RegistryModuleWire) => string) => {
    const c = new Map<string, number>();
    for (const m of registry) c.set(f(m), (c.get(f(m)) ?? 0) + 1);
    return c;
  };
  const byName = count((m) => m.name);
  const byNameProvider = count((m) => `${m.name}-${m.provider}`);
  const alloc = new NameAllocator();
  const out = new Map<string, string>();
  for (const m of registry) {
    const base = byName.get(m.name) === 1 ? m.name : byNameProvider.get(`${m.name}-${m.provider}`) === 1 ? `${m.name}-${m.provider}` : `${m.namespace}-${m.name}-${m.provider}`;
    out.set(m.id, alloc.take(manifestName(base, 'module')));
  }
  return out;
}

/**
 * The module as live: `versionPin` as pinned (an empty pin means "latest", docs/reference/hcp-terraform-api.md §1.1, and is
 * left out, which means the same in a manifest); `enabled` only when false (true is the default);
 * variable options sorted by name, `options` left out when empty (empty means free text, §1.3).
 */
export function moduleSpec(m: { path: string; read: NoCodeModuleRead }): NoCodeModuleSpec {
  const spec: NoCodeModuleSpec = { registryModule: m.path };
  const pin = m.read.module.versionPin;
  if (pin !== null && pin !== '') spec.versionPin = pin;
  if (m.read.module.enabled === false) spec.enabled = false;
  const options: VariableOptionSpec[] = [...m.read.options]
    .sort((a, b) => cmp(a.variableName, b.variableName))
    .map((o) => ({ variableName: o.variableName, variableType: o.variableType, ...(o.options && o.options.length > 0 ? { options: o.options } : {}) }));
  if (options.length > 0) spec.variableOptions = options;
  return spec;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
