import type { Clock } from '../async/clock.js';
import type { Diagnostic } from '../diagnostics/types.js';
import type { Action } from '../model/action.js';
import { silentReporter, type EventCode, type Reporter } from '../model/events.js';
import { DigestBook } from '../secrets/digest.js';
import { Redactor } from '../secrets/redactor.js';

/**
 * What an operation (plan, apply, drift, import, export) needs from whoever runs it. The CLI's Host
 * is one (it prints); `libraryHost` is another (it keeps diagnostics in a list and prints nothing).
 * Operations never print: results are returned, everything else goes through these calls.
 */
export interface OperationHost {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /**
   * Optional: the environment of the Settings document this run is for (`--env NAME`, docs/environments.md):
   * manifests are loaded with its values and settings, and its own state is used. Absent: none.
   */
  readonly environment?: string | undefined;
  readonly reporter: Reporter;
  /** Every token and resolved secret is added here before use. */
  readonly redactor: Redactor;
  /** Secret digests derived in this process (a cache; old-format digests to upgrade when the state is written). */
  readonly digests: DigestBook;
  /** Problems found (manifests, plan time, preflight), handed over as soon as they are found. */
  diagnostics(diags: readonly Diagnostic[], sources: ReadonlyMap<string, string>): void;
  /** A long step starts (`total` objects, when known, and how many of each action) and ends. */
  phase(name: string, total?: number, actions?: Readonly<Partial<Record<Action, number>>>): void;
  endPhase(): void;
  /** A line for people that is neither a result nor an event (a lock wait). */
  notice(text: string): void;
  /** Drop events of this code from now on (the operation has already said the same). */
  silence(code: EventCode): void;
  /**
   * Optional: the time every wait of the operation reads (HTTP pacing and retries, run following, the state lock).
   * Absent: the real clock. Tests pass the ManualClock that also drives the simulators.
   */
  readonly clock?: Clock;
  /** Optional: the state lock now held (`undefined` once released), for a host that may exit at once. */
  lockHeld?(lock: { id: string; leftBehind?: string } | undefined): void;
}

export interface LibraryHost extends OperationHost {
  /** Every diagnostic handed over so far, in order. */
  readonly found: Diagnostic[];
}

/**
 * A host for library use: no output; diagnostics collected in `found`, events to `reporter` if given; waits on
 * `clock` if given (the real clock otherwise).
 */
export function libraryHost(opts: { cwd?: string; env?: NodeJS.ProcessEnv; environment?: string; reporter?: Reporter; clock?: Clock } = {}): LibraryHost {
  const found: Diagnostic[] = [];
  return {
    cwd: opts.cwd ?? process.cwd(),
    env: opts.env ?? process.env,
    reporter: opts.reporter ?? silentReporter,
    redactor: new Redactor(),
    digests: new DigestBook(),
    ...(opts.clock ? { clock: opts.clock } : {}),
    ...(opts.environment !== undefined ? { environment: opts.environment } : {}),
    found,
    diagnostics: (diags) => void found.push(...diags),
    phase: () => undefined,
    endPhase: () => undefined,
    notice: () => undefined,
    silence: () => undefined,
  };
}
