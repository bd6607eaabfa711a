import { formatDuration } from '../model/duration-text.js';
import type { Reporter } from '../model/events.js';
import type { HttpRequest } from './types.js';

/** What failed in one attempt: the status answered, or the socket error. */
export type AttemptFailure = { status: number } | { error: string };

/** The request as events name it: method, path without query, and what it is about. */
export interface RequestLabel {
  method: HttpRequest['method'];
  path: string;
  subject: string | undefined;
}

function describe(label: RequestLabel, what: AttemptFailure): string {
  const subject = label.subject ? ` (${label.subject})` : '';
  return `${label.method} ${label.path}${subject}: ${'status' in what ? `HTTP ${what.status}` : what.error}`;
}

/** `http.retry`: debug for a passing fault, a warning for a 429 and from the third attempt on. */
export function reportRetry(reporter: Reporter | undefined, label: RequestLabel, what: AttemptFailure, attempt: number, retries: number, waitMs: number): void {
  const is429 = 'status' in what && what.status === 429;
  reporter?.emit({
    code: 'http.retry',
    level: is429 || attempt >= 3 ? 'warn' : 'debug',
    message: `${describe(label, what)}; retry ${attempt} of ${retries} in ${formatDuration(waitMs)}`,
    data: { method: label.method, path: label.path, ...what, attempt, waitMs, subject: label.subject },
  });
}

/** `http.read-back`: a failed attempt whose work a read by natural key found done, so it is not sent again. */
export function reportReadBack(reporter: Reporter | undefined, label: RequestLabel, what: AttemptFailure, attempt: number): void {
  reporter?.emit({
    code: 'http.read-back',
    level: 'info',
    message: `${describe(label, what)}, but a read by natural key found it done; not sent again`,
    data: { method: label.method, path: label.path, ...what, attempt, subject: label.subject },
  });
}
