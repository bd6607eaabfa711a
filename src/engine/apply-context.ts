import { ConvergeError, errorMessage } from '../diagnostics/errors.js';
import type { ApplyContext, ApplyOptions, ProviderContext } from '../providers/provider.js';
import type { StateStore } from '../state/state-store.js';
import type { StateRecord } from '../state/types.js';

/**
 * The ApplyContext providers see: every save/forget/setInFlight persists before it resolves.
 *
 * A failed state write (a full disk, a lost lock) comes after the remote change it records, so the
 * change happened; it fails as `state.write-failed` (the views say "done, not recorded", never
 * "FAILED to create"), and no further remote work starts: everything done after it could not be
 * recorded either. The next apply finds those objects by their natural keys.
 */
/** The engine's own view of the context: also runs its own state writes with the same failure handling. */
export type EngineApplyContext = ApplyContext & { recorded(write: () => Promise<void>): Promise<void> };

export function createApplyContext(
  store: StateStore,
  ctx: ProviderContext,
  options: ApplyOptions,
  /** The record as it is saved: the engine adds what providers do not know (its manifest file). */
  complete: (record: StateRecord) => StateRecord = (r) => r,
): EngineApplyContext {
  const stop = new AbortController();
  // A lost state lock (another run may hold it now) stops new remote work like a failed state write.
  const signals = [ctx.signal, stop.signal, store.lockLost].filter((s): s is AbortSignal => s !== undefined);
  const signal = signals.length === 1 ? stop.signal : AbortSignal.any(signals);
  const recorded = async (write: () => Promise<void>): Promise<void> => {
    try {
      await write();
    } catch (e) {
      const error = new ConvergeError('state.write-failed', `the state could not be saved: ${errorMessage(e)}`, {
        source: e instanceof ConvergeError && e.source === 'internal' ? 'internal' : 'user',
        hint: 'fix what stopped the state write, then run apply again: it finds what was done by name and records it',
        cause: e,
      });
      if (!stop.signal.aborted) stop.abort(error);
      throw error;
    }
  };
  return {
    reporter: ctx.reporter,
    secrets: ctx.secrets,
    signal,
    options,
    record: (address) => store.get(address),
    save: (record) => recorded(() => store.put(complete(record))),
    forget: (address) => recorded(() => store.remove(address)),
    setInFlight: (address, run) => recorded(() => store.setInFlight(address, run)),
    recorded,
  };
}
