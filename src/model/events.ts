import type { JsonValue } from '../model/json.js';

export type EventLevel = 'debug' | 'info' | 'warn' | 'error';

/**
 * Progress is typed events; the CLI host decides where each goes (stderr, TTY progress, JSON lines).
 * Libraries never print.
 */
export interface ConvergeEvent {
  /** Stable code, e.g. `http.retry`, `apply.change.done`, `upgrade.phase`. */
  code: string;
  level: EventLevel;
  message: string;
  data?: Record<string, JsonValue | undefined>;
}

export interface Reporter {
  emit(event: ConvergeEvent): void;
}

export const silentReporter: Reporter = { emit: () => undefined };

/** Collects events; used by tests and by the library surface. */
export class MemoryReporter implements Reporter {
  readonly events: ConvergeEvent[] = [];
  emit(event: ConvergeEvent): void {
    this.events.push(event);
  }
}
