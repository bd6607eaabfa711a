import { ConvergeError } from '../diagnostics/errors.js';
import type { Host } from './host.js';

export type StopSignal = 'SIGINT' | 'SIGTERM';

/** 128 + the signal's number: what a shell reports for a process the signal ended (README "Exit codes"). */
export const STOPPED_EXIT: Record<StopSignal, number> = { SIGINT: 130, SIGTERM: 143 };

export interface Interrupts {
  /** Aborted at the first SIGINT or SIGTERM: no new remote work starts, the request in flight finishes. */
  readonly signal: AbortSignal;
  /** The first stop signal received, if any. */
  readonly received: StopSignal | undefined;
  /** Removes the handlers (the default behaviour of both signals comes back). */
  dispose(): void;
}

/**
 * Turns Ctrl-C (SIGINT) and SIGTERM into a graceful stop for a command that holds the state lock:
 * the first one aborts `signal` and says what happens now; the command then finishes the request in
 * flight, saves the state and releases the lock itself. A second one exits at once: the lock stays
 * behind, and the message names it, how to remove it, and how long the next run would otherwise wait
 * (local file: taken over once this process is gone; Nomad: 2 × the lease plus the lock delay).
 */
export function watchInterrupts(host: Host): Interrupts {
  const stop = new AbortController();
  let received: StopSignal | undefined;
  const on = (sig: StopSignal) => {
    if (received !== undefined) {
      host.endPhase();
      const lock = host.heldLock;
      const left = lock === undefined ? 'No state lock is held.' : `The state lock is left behind (id ${lock.id}): ${lock.leftBehind ?? `remove it with \`converge state unlock ${lock.id}\``}.`;
      host.err(`\n${sig} again: exiting at once. ${left}\n`);
      process.exit(STOPPED_EXIT[sig]);
    }
    received = sig;
    stop.abort(new ConvergeError('cli.interrupted', `stopped by ${sig}`, { source: 'user' }));
    host.err(`\n${sig} received: finishing the request in flight, then saving the state and releasing the lock. Press Ctrl-C again to exit at once.\n`);
  };
  const onInt = () => on('SIGINT');
  const onTerm = () => on('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  return {
    signal: stop.signal,
    get received() {
      return received;
    },
    dispose() {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
    },
  };
}
