/**
 * Maps with at most `limit` calls in flight (no unbounded Promise.all over remote calls,
 * docs/architecture.md "Rules the code keeps"). Results keep the input order; the first rejection stops new calls and rejects the map
 * after the calls already started have settled.
 */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (next < items.length && failure === undefined) {
      const i = next++;
      try {
        results[i] = await fn(items[i] as T, i);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  const workers: Promise<void>[] = [];
  for (let w = 0; w < Math.max(1, Math.min(limit, items.length)); w++) workers.push(worker());
  await Promise.all(workers);
  if (failure !== undefined) throw failure.error;
  return results;
}
