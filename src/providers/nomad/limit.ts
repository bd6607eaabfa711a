/**
 * Runs `fn` over `items` with at most `limit` calls in flight (STYLE.md: no unbounded Promise.all
 * over remote calls). Results keep the order of `items`; the first rejection rejects the whole.
 */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, () => worker()));
  return results;
}

/** Concurrent reads per load: enough to hide loopback/LAN latency, small enough not to flood a server. */
export const READ_CONCURRENCY = 8;
