import type { Reporter } from '../../model/events.js';
import type { RolloutProgress } from './rollout.js';

/** Status lines of a rollout at most this often (and the last one always). */
const EVERY_MS = 1000;

/** A rollout's status line through the reporter: how many upgrades are done, running, waiting and failed. */
export function rolloutStatus(reporter: Reporter, total: number, now: () => number): (p: RolloutProgress) => void {
  let last = -Infinity;
  return (p) => {
    const finished = p.running === 0 && p.waiting === 0;
    if (!finished && now() - last < EVERY_MS) return;
    last = now();
    reporter.emit({
      code: 'tfe.upgrade.progress',
      level: 'info',
      message: `upgrades: ${p.done} done, ${p.running} running, ${p.waiting} waiting, ${p.failed} failed (of ${total})`,
      data: { ...p, total },
    });
  };
}
