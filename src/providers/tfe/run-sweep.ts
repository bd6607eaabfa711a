import { sleep } from '../../async/sleep.js';
import type { TfeClient } from './client.js';
import { workspacesWithCurrentRuns } from './run-sweep-api.js';
import type { WorkspaceWire } from './wire.js';

/*
 * Follows many runs with few requests (issue 14.1). Every follower asks the sweeper for its run's state; the
 * sweeper answers all who asked since the last round with one sweep of the workspace list with current runs
 * (100 runs a request), and reads on its own only a run that is no longer its workspace's current run (a
 * newer run replaced it, or it waits behind one) or, when fewer runs wait than a sweep has pages, each run
 * directly. Rounds start at most once per interval, one at a time: the rate budget goes to initiations and
 * confirmations, which never wait for a round.
 */

export interface RunState {
  status: string;
  confirmable: boolean | null;
  /** The workspace as the sweep saw it together with this run (absent when the run was read on its own). */
  workspace?: WorkspaceWire;
}

interface Waiter {
  workspaceId: string;
  runId: string;
  /** Reads this run alone (GET /runs/:id, or the upgrade status for an upgrade run). */
  readAlone: () => Promise<RunState>;
  resolve: (s: RunState) => void;
  reject: (e: unknown) => void;
}

export class RunSweeper {
  private waiting: Waiter[] = [];
  private round: Promise<void> | null = null;
  private lastRoundAt = -Infinity;
  /** Pages the last sweep took (1 until one was made). */
  private pages = 1;
  /** Counters for tests and benchmarks. */
  readonly stats = { rounds: 0, sweeps: 0, aloneReads: 0 };

  constructor(
    private readonly client: TfeClient,
    private readonly intervalMs: number,
  ) {}

  /** The run's state at the next round. */
  read(workspaceId: string, runId: string, readAlone: () => Promise<RunState>): Promise<RunState> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ workspaceId, runId, readAlone, resolve, reject });
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

  private async runRound(): Promise<void> {
    const wait = this.lastRoundAt + this.intervalMs - performance.now();
    if (wait > 0) await sleep(wait);
    // Followers that ask at about the same moment share the round.
    await new Promise((r) => setImmediate(r));
    this.lastRoundAt = performance.now();
    this.stats.rounds += 1;
    const batch = this.waiting;
    this.waiting = [];
    let left = batch;
    if (new Set(batch.map((w) => w.runId)).size > this.pages) {
      this.stats.sweeps += 1;
      try {
        const { workspaces, pages } = await workspacesWithCurrentRuns(this.client);
        this.pages = pages;
        const byWorkspace = new Map(workspaces.map((s) => [s.workspace.id, s]));
        left = [];
        for (const w of batch) {
          const s = byWorkspace.get(w.workspaceId);
          if (s?.run && s.run.id === w.runId) w.resolve({ status: s.run.status, confirmable: s.run.confirmable, workspace: s.workspace });
          else left.push(w);
        }
      } catch (e) {
        for (const w of batch) w.reject(e);
        return;
      }
    }
    await Promise.all(
      left.map(async (w) => {
        this.stats.aloneReads += 1;
        try {
          w.resolve(await w.readAlone());
        } catch (e) {
          w.reject(e);
        }
      }),
    );
  }
}

const sweepers = new WeakMap<TfeClient, RunSweeper>();

/** The sweeper every run follower of this client shares (one per apply). */
export function sweeperFor(client: TfeClient, intervalMs: number): RunSweeper {
  let s = sweepers.get(client);
  if (!s) sweepers.set(client, (s = new RunSweeper(client, intervalMs)));
  return s;
}
