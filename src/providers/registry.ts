import { nomadModule } from './nomad/module.js';
import type { ProviderModule } from './provider.js';
import { tfeModule } from './tfe/module.js';

/** Every remote API converge talks to, one line each; each kind names its module's id (src/kinds/). */
export const PROVIDER_MODULES: readonly ProviderModule[] = [nomadModule, tfeModule];

export function providerModule(id: string): ProviderModule {
  const m = PROVIDER_MODULES.find((p) => p.id === id);
  if (!m) throw new Error(`no provider module ${id}`);
  return m;
}
