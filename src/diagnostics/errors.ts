import type { SourceRange } from './types.js';

/** Whose fault an error is: the user's input or environment, the remote service, or a bug in converge. */
export type ErrorSource = 'user' | 'remote' | 'internal';

export interface ConvergeErrorOptions {
  source: ErrorSource;
  /** How to fix it, shown under the message. */
  hint?: string;
  range?: SourceRange;
  cause?: unknown;
  /** HTTP status when the error came from a remote call. */
  status?: number;
  /** Retrying the same request later may succeed (429, 5xx, socket errors). */
  retryable?: boolean;
  /** The service's own explanation, as quoted in the message (masked when the request carried a secret). */
  serverDetail?: string;
}

/**
 * Every error converge raises on purpose. `code` is stable (documented in docs/errors.md);
 * messages never contain secret values: callers pass them through the redactor anyway.
 */
export class ConvergeError extends Error {
  readonly code: string;
  readonly source: ErrorSource;
  readonly hint?: string;
  readonly range?: SourceRange;
  readonly status?: number;
  readonly retryable: boolean;
  readonly serverDetail?: string;

  constructor(code: string, message: string, options: ConvergeErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ConvergeError';
    this.code = code;
    this.source = options.source;
    if (options.hint !== undefined) this.hint = options.hint;
    if (options.range !== undefined) this.range = options.range;
    if (options.status !== undefined) this.status = options.status;
    this.retryable = options.retryable ?? false;
    if (options.serverDetail !== undefined) this.serverDetail = options.serverDetail;
  }
}

export function isConvergeError(e: unknown): e is ConvergeError {
  return e instanceof ConvergeError;
}

export function errorMessage(e: unknown): string {
  if (e instanceof Error) return e.message;
  return String(e);
}
