import { describe, expect, it } from 'vitest';
import type { TfeClient } from '../../../src/providers/tfe/client.js';
import { RunSweeper, type RunState } from '../../../src/providers/tfe/run-sweep.js';
import { ManualClock } from '../../../src/async/manual-clock.js';

/*
 * A lone run (an upgrade's canary, a single first run) is read on its own, one request a round. Rounds came once
 * per --poll-interval (1 s), so a canary's ~2 s run took about 4 s to follow (two rounds to see its plan ready, two
 * to see it applied), while every other workspace of the rollout waited. A round that cost one request is now
 * followed after a quarter of the interval, backing off by half while the run does not move (to 10 × the interval).
 * Time is a manual clock; the test counts reads.
 */

const INTERVAL = 1000;

/** A lone follower reading `statusAt(t)` through the sweeper until `until`; the times of its reads. */
async function follow(statusAt: (t: number) => string, until: number): Promise<number[]> {
  const clock = new ManualClock(0);
  // Never used: one workspace is read alone, not swept.
  const sweeper = new RunSweeper({} as TfeClient, INTERVAL, clock);
  const reads: number[] = [];
  let done = false;
  void (async () => {
    while (!done) {
      await sweeper.readRun('ws-1', 'run-1', (): Promise<RunState> => {
        reads.push(clock.now());
        return Promise.resolve({ status: statusAt(clock.now()), confirmable: null });
      });
    }
  })();
  for (let t = 0; t <= until; t += 10) await clock.advance(t - clock.now());
  done = true;
  return reads;
}

describe('run sweeper: a lone run is polled sooner at first, then backs off', () => {
  it('sees a lone run whose plan is ready after 600 ms by its third read, 625 ms in (not at 1 s)', async () => {
    const reads = await follow((t) => (t < 600 ? 'planning' : 'cost_estimated'), 2000);
    const seen = reads.find((t) => t >= 600);
    expect(seen).toBeDefined();
    expect(reads.filter((t) => t <= (seen as number))).toHaveLength(3);
    expect(seen).toBeLessThan(INTERVAL);
  });

  it('a run that does not move is read at most 16 times in a minute (the interval backs off to 10 s)', async () => {
    const reads = await follow(() => 'planning', 60_000);
    expect(reads.length).toBeGreaterThanOrEqual(10);
    expect(reads.length).toBeLessThanOrEqual(16);
    // Never faster than four a second.
    for (let i = 1; i < reads.length; i++) expect((reads[i] as number) - (reads[i - 1] as number)).toBeGreaterThanOrEqual(INTERVAL / 4);
  });
});
