import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/async/manual-clock.js';
import { onClock } from './story.js';

/*
 * Regression: the stories' clock driver (onClock) moved the ManualClock by up to a second whenever the work had
 * not ended after 50 turns, also while it only waited for a file write: an apply that writes state for each run it
 * follows saw seconds pass at every write, so its 30 run followers reached the run sweeper one at a time (60 runs
 * read alone where the same apply in real time read 17). Time the work does not wait on must not pass.
 */

let dir: string | undefined;
afterEach(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('onClock', () => {
  it('does not move the clock while the work waits for file writes', async () => {
    dir = await mkdtemp(join(tmpdir(), 'converge-on-clock-'));
    const clock = new ManualClock();
    // Another party's timer a second away (a simulator's run step): the driver may move time to it only once the work waits on the clock.
    clock.setTimeout(() => undefined, 1000);
    const block = Buffer.alloc(4 * 1024 * 1024, 1);
    const work = (async () => {
      const started = clock.now();
      for (let i = 0; i < 8; i++) await writeFile(join(dir as string, `state-${i}.json`), block);
      return clock.now() - started;
    })();
    expect(await onClock(clock, work)).toBe(0);
  });
});
