import type { Clock } from '../../async/clock.js';
import type { TfeClient } from './client.js';
import { workspacesWithCurrentRuns, type SweptWorkspace } from './run-sweep-api.js';
import type { WorkspaceWire } from './wire.js';

/*
 * Follows many runs with few requests. Every follower asks the sweeper for its run's state; the
 * sweeper answers all who asked since the last round with one sweep of the workspace list with current runs
 * (100 runs a request), and reads on its own only a run that is no longer its workspace's current run (a
 * newer run replaced it, or it waits behind one) or, when fewer runs wait than a sweep has pages, each run
 * directly. Rounds start at most once per interval, one at a time, and the interval backs off (to 10×) while
 * nothing moves: the rate budget goes to initiations and confirmations, which never wait for a round. A round that
 * cost one request (one run read alone: a canary, a lone first run) is followed after a quarter of the interval
 * (LONE_ROUND_SHARE), backing off the same way: a lone run is seen to move within a quarter second at the default
 * --poll-interval 1s instead of a second (a canary's ~2 s run took 4 s to follow), for at most four requests a
 * second, an eighth of HCP Terraform's 30 (docs/reference/hcp-terraform-api.md §8). So is a round whose waiters all
 * ask their first question and number at least FRESH_PER_PAGE per page of the sweep (a rollout's workspaces that
 * started a moment after the canary's last round: 187 of 199 waited a whole second for the next one).
 */

export interface RunState {
  status: string;
  confirmable: boolean | null;
  /** The workspace as the sweep saw it together with this run (absent when the run was read on its own). */
  workspace?: WorkspaceWire;
}

interface Waiter {
  key: string;
  /** The answer from a sweep's row for the workspace (undefined: not answerable from it; read alone). */
  fromSweep(row: SweptWorkspace | undefined): unknown;
  readAlone(): Promise<unknown>;
  workspaceId: string;
  resolve(v: unknown): void;
  reject(e: unknown): void;
}

export class RunSweeper {
  private waiting: Waiter[] = [];
  private round: Promise<void> | null = null;
  private lastRoundAt = -Infinity;
  private backoff = 0;
  /** What each followed run was last seen as: a round where none moved backs off. */
  private seen = new Map<string, string>();
  /** Pages the last sweep took (1 until one was made). */
  private pages = 1;
  /** Requests the last round sent (sweep pages and runs read alone). */
  private lastRoundCost = Infinity;
  /** Counters for tests and benchmarks. */
  readonly stats = { rounds: 0, sweeps: 0, aloneReads: 0 };

  constructor(
    private readonly client: TfeClient,
    private readonly intervalMs: number,
    private readonly clock: Pick<Clock, 'now' | 'sleep'> = client.clock,
  ) {}

  /** The run's state at the next round; `readAlone` reads it on its own (GET /runs/:id, the upgrade status). */
  readRun(workspaceId: string, runId: string, readAlone: () => Promise<RunState>): Promise<RunState> {
    return this.ask<RunState>({
      key: runId,
      workspaceId,
      readAlone,
      fromSweep: (row) => (row?.run && row.run.id === runId ? { status: row.run.status, confirmable: row.run.confirmable, workspace: row.workspace } : undefined),
    });
  }

  /**
   * The workspace's row at the next round, when `useRow` can answer from it (undefined: ask `readAlone`).
   * For questions about a workspace's runs that a sweep usually settles (is a run in flight?).
   */
  askWorkspace<T>(workspaceId: string, useRow: (row: SweptWorkspace) => T | undefined, readAlone: () => Promise<T>): Promise<T> {
    return this.ask<T>({ key: `ws:${workspaceId}`, workspaceId, readAlone, fromSweep: (row) => (row ? useRow(row) : undefined) });
  }

  private ask<T>(w: Omit<Waiter, 'resolve' | 'reject'>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.waiting.push({ ...w, resolve: resolve as (v: unknown) => void, reject });
      this.pump();
    });
  }

  private pump(): void {
    if (this.round !== null || this.waiting.length === 0) return;
    this.round = this.runRound().finally(() => {
      this.round = null;
      this.pump();
    });
  }

  /**
   * Every waiter asks its first question, and they are many for what a sweep costs (FRESH_PER_PAGE a page): the
   * followers a rollout starts at once that missed the last round by a few milliseconds. They need not wait a
   * whole interval: nothing they ask about was read before.
   */
  private freshCrowd(): boolean {
    if (this.waiting.some((w) => this.seen.has(w.key))) return false;
    return new Set(this.waiting.map((w) => w.workspaceId)).size >= FRESH_PER_PAGE * this.pages;
  }

  private async runRound(): Promise<void> {
    // Followers that ask at about the same moment are counted together (freshCrowd) and share the round.
    await new Promise((r) => setImmediate(r));
    const share = this.lastRoundCost <= 1 || this.freshCrowd() ? LONE_ROUND_SHARE : 1;
    const interval = Math.min(this.intervalMs * 10, this.intervalMs * share * Math.pow(1.5, this.backoff));
    const wait = this.lastRoundAt + interval - this.clock.now();
    if (wait > 0) {
      await this.clock.sleep(wait);
      await new Promise((r) => setImmediate(r));
    }
    this.lastRoundAt = this.clock.now();
    this.stats.rounds += 1;
    const batch = this.waiting;
    this.waiting = [];
    const answers = new Map<Waiter, unknown>();
    let cost = 0;
    if (new Set(batch.map((w) => w.workspaceId)).size > this.pages) {
      this.stats.sweeps += 1;
      try {
        const { workspaces, pages } = await workspacesWithCurrentRuns(this.client);
        this.pages = pages;
        cost += pages;
        const rows = new Map(workspaces.map((s) => [s.workspace.id, s]));
        for (const w of batch) {
          const a = w.fromSweep(rows.get(w.workspaceId));
          if (a !== undefined) answers.set(w, a);
        }
      } catch (e) {
        for (const w of batch) w.reject(e);
        return;
      }
    }
    await Promise.all(
      batch
        .filter((w) => !answers.has(w))
        .map(async (w) => {
          this.stats.aloneReads += 1;
          cost += 1;
          try {
            answers.set(w, await w.readAlone());
          } catch (e) {
            w.reject(e);
          }
        }),
    );
    let moved = false;
    for (const [w, a] of answers) {
      const status = typeof a === 'object' && a !== null && 'status' in a ? String(a.status) : 'asked';
      if (this.seen.get(w.key) !== status) moved = true;
      this.seen.set(w.key, status);
      w.resolve(a);
    }
    this.backoff = moved ? 0 : this.backoff + 1;
    this.lastRoundCost = cost;
  }
}

/** The share of the interval after a round that cost one request, or before a crowd of first questions (see the top of this file). */
export const LONE_ROUND_SHARE = 1 / 4;
/** First questions per sweep page that make a crowd worth a round sooner (freshCrowd). */
export const FRESH_PER_PAGE = 10;

const sweepers = new WeakMap<TfeClient, RunSweeper>();

/** The sweeper every run follower of this client shares (one per apply). */
export function sweeperFor(client: TfeClient, intervalMs: number): RunSweeper {
  let s = sweepers.get(client);
  if (!s) sweepers.set(client, (s = new RunSweeper(client, intervalMs)));
  return s;
}
