import type { FaultSettings, Faults } from './faults.js';
import type { RequestLog } from './request-log.js';

/** A simulator serving real HTTP on loopback. Start on port 0 in tests; stop cleanly. */
export interface SimulatorHandle {
  /** Base URL without trailing slash, e.g. `http://127.0.0.1:41234`. */
  url: string;
  port: number;
  faults: Faults;
  log: RequestLog;
  stop(): Promise<void>;
}

export interface SimulatorOptions {
  host?: string;
  /** 0 = any free port. */
  port?: number;
  faults?: Partial<FaultSettings>;
  /** Shared log so a sandbox with both services keeps one timeline. */
  log?: RequestLog;
}
