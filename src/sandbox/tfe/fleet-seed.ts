import type { NoCodeModule, Store, VarCategory, Workspace } from './model.js';

/*
 * A benchmark fleet put straight into the model: no-code modules over the seed's registry modules and
 * no-code workspaces with their variables, as they would stand after being created through the API and
 * their first run applied. Benchmarks that measure a plan (not the apply that builds the fleet) seed
 * thousands of workspaces this way in milliseconds instead of minutes of rate-limited creates.
 */

export interface FleetNoCodeModule {
  /** Name of a registry module in the seed (`registryModules[].name`). */
  registryModule: string;
  provider: string;
  versionPin: string;
  enabled?: boolean;
  variableOptions?: { variableName: string; variableType: string; options: unknown[] }[];
}

export interface FleetWorkspace {
  name: string;
  /** The registry module name of the no-code module the workspace deploys (at its pin). */
  module: string;
  description?: string | null;
  variables?: { key: string; value: string; category?: VarCategory; sensitive?: boolean; hcl?: boolean }[];
}

export interface Fleet {
  noCodeModules?: FleetNoCodeModule[];
  workspaces?: FleetWorkspace[];
}

/** Adds the fleet; throws (naming the entry) on what the API would refuse: unknown module or pin, a taken name. */
export function addFleet(store: Store, fleet: Fleet, terraformVersion: string): { noCodeModules: number; workspaces: number } {
  const now = new Date().toISOString();
  const byModuleName = new Map<string, NoCodeModule>();
  for (const [i, m] of (fleet.noCodeModules ?? []).entries()) {
    const registry = store.moduleByName(store.organization, m.registryModule, m.provider);
    if (!registry) throw new Error(`noCodeModules[${i}]: no registry module ${m.registryModule}/${m.provider} in the seed`);
    if (store.noCodeOf(registry.id)) throw new Error(`noCodeModules[${i}]: ${m.registryModule} already has a no-code module`);
    if (!registry.versions.some((v) => v.version === m.versionPin && v.status === 'ok')) {
      throw new Error(`noCodeModules[${i}]: ${m.registryModule} has no ingested version ${m.versionPin}`);
    }
    const n: NoCodeModule = {
      id: store.ids.next('nocode'),
      registryModuleId: registry.id,
      versionPin: m.versionPin,
      enabled: m.enabled ?? true,
      options: (m.variableOptions ?? []).map((o) => ({ id: store.ids.next('ncvaropt'), ...o })),
      createdAt: now,
      updatedAt: now,
    };
    store.noCodeModules.set(n.id, n);
    byModuleName.set(m.registryModule, n);
  }
  const taken = new Set([...store.workspaces.values()].map((w) => w.name));
  for (const [i, w] of (fleet.workspaces ?? []).entries()) {
    const n = byModuleName.get(w.module);
    if (!n) throw new Error(`workspaces[${i}]: no no-code module for ${w.module} in this fleet`);
    if (taken.has(w.name)) throw new Error(`workspaces[${i}]: the name ${w.name} is taken`);
    taken.add(w.name);
    const ws: Workspace = {
      id: store.ids.next('ws'),
      name: w.name,
      description: w.description ?? null,
      executionMode: 'remote',
      agentPoolId: null,
      autoApply: false,
      sourceName: null,
      sourceUrl: null,
      terraformVersion,
      projectId: store.defaultProject.id,
      createdAt: now,
      updatedAt: now,
      settingOverwrites: { executionMode: false, agentPool: false },
      source: 'tfe-module',
      noCode: { moduleId: n.id, registryModuleId: n.registryModuleId, version: n.versionPin },
      vars: (w.variables ?? []).map((v) => ({
        id: store.ids.next('var'),
        key: v.key,
        value: v.value,
        description: null,
        category: v.category ?? 'terraform',
        hcl: v.hcl ?? false,
        sensitive: v.sensitive ?? false,
        versionId: store.ids.hex(),
      })),
      managedResources: 0,
      currentRunId: null,
      configurationVersionId: store.ids.next('cv'),
    };
    store.workspaces.set(ws.id, ws);
  }
  return { noCodeModules: byModuleName.size, workspaces: fleet.workspaces?.length ?? 0 };
}
