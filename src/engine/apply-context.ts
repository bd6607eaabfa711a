import { ConvergeError, errorMessage } from '../diagnostics/errors.js';
import type { ApplyContext, ApplyOptions, ProviderContext } from '../providers/provider.js';
import type { StateStore } from '../state/state-store.js';
import type { StateRecord } from '../state/types.js';
import type { Address } from '../model/kinds.js';

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
  /** A Moved document's old address of a change's address, if the plan moves it (Change.movedFrom). */
  movedFrom: (address: Address) => Address | undefined = () => undefined,
): EngineApplyContext {
  const stop = new AbortController();
  // A lost state lock (another run may hold it now) stops new remote work like a failed state write.
  const signals = [ctx.signal, stop.signal, store.lockLost].filter((s): s is AbortSignal => s !== undefined);
  const signal = signals.length === 1 ? stop.signal : AbortSignal.any(signals);
  const recordBefore = (address: Address): StateRecord | undefined => {
    const from = movedFrom(address);
    return from === undefined ? undefined : store.get(from);
  };
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
    // Until a moved object's change saves its record at the new address, its record is the one at the old.
    record: (address) => store.get(address) ?? recordBefore(address),
    save: (record) => recorded(() => store.put(complete(record))),
    forget: (address) => recorded(() => store.remove(address)),
    // A run started for a moved object (an upgrade after its rename) is recorded at the new address: the
    // old record is copied there with the run (the live rename was sent first), and the old one goes later.
    setInFlight: (address, run) =>
      recorded(() => {
        const before = store.get(address) === undefined ? recordBefore(address) : undefined;
        if (before === undefined) return store.setInFlight(address, run);
        const { inFlight: _old, ...rest } = before;
        return store.put(complete({ ...rest, name: address.name, ...(run !== undefined ? { inFlight: run } : {}) }));
      }),
    recorded,
  };
}
