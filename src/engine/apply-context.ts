import type { ApplyContext, ApplyOptions, ProviderContext } from '../providers/provider.js';
import type { StateStore } from '../state/state-store.js';

/** The ApplyContext providers see: every save/forget/setInFlight persists before it resolves. */
export function createApplyContext(store: StateStore, ctx: ProviderContext, options: ApplyOptions): ApplyContext {
  return {
    reporter: ctx.reporter,
    secrets: ctx.secrets,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    options,
    record: (address) => store.get(address),
    save: (record) => store.put(record),
    forget: (address) => store.remove(address),
    setInFlight: (address, run) => store.setInFlight(address, run),
  };
}
