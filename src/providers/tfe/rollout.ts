/*
 * A rollout people can steer: the canary first and alone, then waves of at most `concurrency` items
 * at once (--parallelism), and at most a group's `maxConcurrent` of one group (upgrade.maxConcurrent of the
 * no-code module). A group stops starting items after `maxFailures` of its items failed (upgrade.maxFailures,
 * default 1); a failed canary stops every group. Items not started are `skip`ped with the reason.
 */

import type { OutcomeDetail } from '../../plan/codes.js';

/** Why the rollout did not start an item. */
export type StopReason = Extract<OutcomeDetail, { code: 'canary-failed' | 'upgrade-failed' | 'max-failures' }>;

export interface RolloutProgress {
  done: number;
  running: number;
  waiting: number;
  failed: number;
}

export interface GroupLimits {
  maxConcurrent?: number | undefined;
  maxFailures?: number | undefined;
}

export interface RolloutOptions<T, R> {
  concurrency: number;
  run(item: T): Promise<R>;
  isFailure(r: R): boolean;
  /** Why a failed item failed (an error code), named when a failed canary stops the rollout. */
  causeOf?(r: R): string | undefined;
  skip(item: T, reason: StopReason): R;
  nameOf(item: T): string;
  /** The group an item belongs to (its module) and the group's limits. */
  groupOf?(item: T): { name: string; limits: GroupLimits };
  /** After each start and end. */
  onProgress?(p: RolloutProgress): void;
}

interface GroupState {
  running: number;
  failures: string[];
}

export async function rollout<T, R>(items: readonly T[], o: RolloutOptions<T, R>): Promise<R[]> {
  const results: (R | undefined)[] = new Array<R | undefined>(items.length);
  const first = items[0];
  if (first === undefined) return [];
  const groups = new Map<string, GroupState>();
  const groupOf = (item: T) => o.groupOf?.(item) ?? { name: '', limits: {} };
  const stateOf = (name: string) => groups.get(name) ?? (groups.set(name, { running: 0, failures: [] }).get(name) as GroupState);
  const progress = { done: 0, running: 0, waiting: items.length, failed: 0 };
  const report = () => o.onProgress?.({ ...progress });
  let canaryFailed = false;

  const runOne = async (i: number): Promise<void> => {
    const item = items[i] as T;
    const g = groupOf(item);
    const s = stateOf(g.name);
    s.running += 1;
    progress.running += 1;
    progress.waiting -= 1;
    report();
    const r = await o.run(item);
    results[i] = r;
    s.running -= 1;
    progress.running -= 1;
    progress.done += 1;
    if (o.isFailure(r)) {
      s.failures.push(o.nameOf(item));
      progress.failed += 1;
    }
    report();
  };

  await runOne(0);
  if (results[0] !== undefined && o.isFailure(results[0])) canaryFailed = true;

  const stopReason = (item: T): StopReason | undefined => {
    if (canaryFailed) {
      const cause = results[0] !== undefined ? o.causeOf?.(results[0]) : undefined;
      return { code: 'canary-failed', canary: o.nameOf(first), ...(cause !== undefined ? { cause } : {}) };
    }
    const g = groupOf(item);
    const s = stateOf(g.name);
    const max = Math.max(1, g.limits.maxFailures ?? 1);
    if (s.failures.length < max) return undefined;
    if (max === 1) return { code: 'upgrade-failed', workspace: s.failures[0] ?? '?' };
    return { code: 'max-failures', module: g.name, maxFailures: max, failed: [...s.failures] };
  };

  const waiting = items.map((_, i) => i).slice(1);
  await new Promise<void>((resolve) => {
    const pump = () => {
      let skipped = false;
      for (let k = 0; k < waiting.length && progress.running < Math.max(1, o.concurrency); ) {
        const i = waiting[k] as number;
        const item = items[i] as T;
        const reason = stopReason(item);
        if (reason !== undefined) {
          results[i] = o.skip(item, reason);
          waiting.splice(k, 1);
          progress.waiting -= 1;
          skipped = true;
          continue;
        }
        const g = groupOf(item);
        if (g.limits.maxConcurrent !== undefined && stateOf(g.name).running >= Math.max(1, g.limits.maxConcurrent)) {
          k++;
          continue;
        }
        waiting.splice(k, 1);
        void runOne(i).then(pump);
      }
      if (skipped) report();
      if (waiting.length === 0 && progress.running === 0) resolve();
    };
    pump();
  });
  return results as R[];
}
