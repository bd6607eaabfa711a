/**
 * Waits `ms`; an aborted `signal` ends the wait early without an error (the caller then looks at the
 * signal): a stop must not turn into a failure in the middle of polling or backing off.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
