import type { JsonValue } from '../model/json.js';
import type { ConvergeEvent, EventLevel, TypedEvent } from '../model/events.js';
import type { JsonDiagnostic } from './diagnostics.js';

/*
 * `--json-stream`: one JSON object per line on stdout while a command runs (schemas/json-stream.json), shaped
 * like Terraform's machine-readable UI (`terraform apply -json`: every line has `@level`, `@message`,
 * `@timestamp` and `type`; https://developer.hashicorp.com/terraform/internals/machine-readable-ui). Three
 * types: `event` (a progress event of docs/events.md, with its code and data), `diagnostic` (a problem that
 * stops or warns, as schemas/diagnostics.json describes one) and, last, `summary` (the exit code and the
 * command's result document). Only the CLI host writes them, through the redactor.
 */

/** Version of the line format; a change that breaks readers raises it. */
export const JSON_STREAM_FORMAT_VERSION = '1.0';

interface LineHead {
  formatVersion: typeof JSON_STREAM_FORMAT_VERSION;
  '@level': EventLevel;
  '@message': string;
  '@timestamp': string;
}

export type StreamLine =
  | (LineHead & { type: 'event'; code: string; data: Record<string, JsonValue | undefined> })
  | (LineHead & { type: 'diagnostic'; code: string; diagnostic: JsonDiagnostic })
  | (LineHead & { type: 'summary'; command: string; exitCode: number; result?: JsonValue });

const head = (level: EventLevel, message: string, now: number): LineHead => ({
  formatVersion: JSON_STREAM_FORMAT_VERSION,
  '@level': level,
  '@message': message,
  '@timestamp': new Date(now).toISOString(),
});

/** A progress event as a line; `message` is the words the text progress shows for it. */
export function eventLine(event: ConvergeEvent | TypedEvent, message: string, now: number): StreamLine {
  return { ...head(event.level, message, now), type: 'event', code: event.code, data: event.data ?? {} };
}

export function diagnosticLine(diagnostic: JsonDiagnostic, now: number): StreamLine {
  const level = diagnostic.severity === 'error' ? 'error' : 'warn';
  return { ...head(level, diagnostic.summary, now), type: 'diagnostic', code: diagnostic.code, diagnostic };
}

/** The last line: how the command ended, and its result document (`apply --json`, `plan --json`, …) when it has one. */
export function summaryLine(command: string, exitCode: number, message: string, now: number, result?: JsonValue): StreamLine {
  return { ...head(exitCode === 1 ? 'error' : 'info', message, now), type: 'summary', command, exitCode, ...(result !== undefined ? { result } : {}) };
}

export function renderStreamLine(line: StreamLine): string {
  return JSON.stringify(line) + '\n';
}
