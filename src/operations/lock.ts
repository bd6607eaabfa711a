import { isConvergeError } from '../diagnostics/errors.js';
import { openStateStore, type StateStore } from '../state/state-store.js';
import type { StateBackend } from '../state/types.js';
import { formatElapsed } from '../model/duration-text.js';
import type { OperationHost } from './host.js';

/**
 * Opens the state under its lock, waiting up to `lockTimeoutMs` for a held one (Terraform's
 * `-lock-timeout`). Before waiting it says who holds the lock (the backend's `state.locked` message
 * names owner, host, pid, operation, since when and the lock id), once, for every backend; when the
 * wait runs out the error says the same again with how to remove a dead holder's lock.
 */
export async function openLockedStore(host: OperationHost, backend: StateBackend, operation: string, lockTimeoutMs: number): Promise<StateStore> {
  const open = (timeoutMs: number) =>
    openStateStore(backend, { lock: true, operation, lockTimeoutMs: timeoutMs, reporter: host.reporter, upgradeDigests: (d) => host.digests.upgradeAll(d) });
  const told = (store: StateStore) => {
    host.lockHeld?.(store.heldLock);
    return store;
  };
  if (lockTimeoutMs <= 0) return told(await open(0));
  try {
    return told(await open(0));
  } catch (e) {
    if (!isConvergeError(e) || e.code !== 'state.locked') throw e;
    host.notice(`Waiting up to ${formatElapsed(lockTimeoutMs)} (--lock-timeout) for the state lock. ${e.message}\n`);
    // The Nomad backend would announce the same wait again.
    host.silence('state.lock.wait');
    host.phase('waiting for the state lock');
    const store = await open(lockTimeoutMs);
    host.endPhase();
    host.notice('Got the state lock.\n');
    return told(store);
  }
}
