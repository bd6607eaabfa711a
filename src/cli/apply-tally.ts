import type { Action } from '../model/action.js';
import type { TypedEvent } from '../model/events.js';

/** Changes of one action in this phase: finished (and how), and started but not finished yet. */
interface ActionCount {
  total: number;
  done: number;
  failed: number;
  skipped: number;
  cancelled: number;
  running: Set<string>;
}

const emptyCount = (total: number): ActionCount => ({ total, done: 0, failed: 0, skipped: 0, cancelled: 0, running: new Set() });

/**
 * The one count of an apply's objects, kept from the engine's `apply.change.start` and `apply.change.done`
 * events as they happen. The status line's `[done/total]` and the upgrades summary (`upgrades: 2 done,
 * 3 running, …`) both read it, so they cannot disagree: a rollout that counted for itself said "2 done"
 * beside a status line that had counted 1, and left out the upgrades it skipped.
 */
export class ApplyTally {
  /** Every change finished in this phase, whatever its action. */
  done = 0;
  private byAction = new Map<string, ActionCount>();

  /** A new phase: `actions` is how many changes of each action it holds, when known. */
  reset(actions: Readonly<Partial<Record<Action, number>>> = {}): void {
    this.done = 0;
    this.byAction = new Map(Object.entries(actions).map(([action, n]) => [action, emptyCount(n ?? 0)]));
  }

  /** Counts an event; says whether it finished the last upgrade of the phase (then the summary is final). */
  record(event: TypedEvent): { upgradesFinished: boolean } {
    if (event.code !== 'apply.change.start' && event.code !== 'apply.change.done') return { upgradesFinished: false };
    const { action, kind, name } = event.data;
    const key = `${kind}/${name}`;
    const count = this.byAction.get(action) ?? this.byAction.set(action, emptyCount(0)).get(action);
    if (count === undefined) return { upgradesFinished: false };
    if (event.code === 'apply.change.start') {
      count.running.add(key);
      return { upgradesFinished: false };
    }
    this.done += 1;
    count.running.delete(key);
    count.done += 1;
    const { status } = event.data;
    if (status === 'failed') count.failed += 1;
    else if (status === 'skipped') count.skipped += 1;
    else if (status === 'cancelled') count.cancelled += 1;
    return { upgradesFinished: action === 'upgrade' && count.total > 1 && count.done === count.total };
  }

  /**
   * `upgrades: 2 done, 3 running, 0 waiting, 1 failed (of 6)` (skipped and cancelled ones named when there are
   * any; they are done too, as the status line counts them), for a phase with more than one upgrade; undefined
   * otherwise, or with `whileRunning` once none has started or all are done.
   */
  upgradesSummary(opts: { whileRunning?: boolean } = {}): string | undefined {
    const c = this.byAction.get('upgrade');
    if (c === undefined || c.total <= 1) return undefined;
    if (opts.whileRunning === true && (c.done + c.running.size === 0 || c.done >= c.total)) return undefined;
    const waiting = Math.max(0, c.total - c.done - c.running.size);
    const more = [c.skipped > 0 ? `, ${c.skipped} skipped` : '', c.cancelled > 0 ? `, ${c.cancelled} cancelled` : ''].join('');
    return `upgrades: ${c.done} done, ${c.running.size} running, ${waiting} waiting, ${c.failed} failed${more} (of ${c.total})`;
  }
}
