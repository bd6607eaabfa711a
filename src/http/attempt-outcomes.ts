import type { HttpResponse } from './types.js';

/** A response whose status the policy retries; carried through p-retry, returned as-is when retries run out. */
export class RetryableResponse extends Error {
  constructor(readonly response: HttpResponse) {
    super(`HTTP ${response.status}`);
  }
}

/** A socket-level failure (no response). */
export class NetworkFailure extends Error {
  constructor(
    readonly code: string | undefined,
    readonly original: unknown,
  ) {
    super(code ?? (original instanceof Error ? original.message : String(original)));
  }
}

/** Runs a read-back; a failing read counts as "cannot tell", which ends the retries with the original failure. */
export async function lookBack(readBack: () => Promise<HttpResponse | undefined>): Promise<HttpResponse | undefined | 'failed'> {
  try {
    return await readBack();
  } catch {
    return 'failed';
  }
}
