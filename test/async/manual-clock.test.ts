import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/async/manual-clock.js';

describe('ManualClock', () => {
  it('fires each timer at its own time, in order, and intervals again each period', async () => {
    const clock = new ManualClock(0);
    const seen: string[] = [];
    clock.setTimeout(() => seen.push(`b@${clock.now()}`), 200);
    clock.setTimeout(() => seen.push(`a@${clock.now()}`), 100);
    const every = clock.setInterval(() => seen.push(`i@${clock.now()}`), 150);
    await clock.advance(350);
    expect(seen).toEqual(['a@100', 'i@150', 'b@200', 'i@300']);
    expect(clock.now()).toBe(350);
    clock.clearTimer(every);
    await clock.advance(1000);
    expect(seen).toHaveLength(4);
    expect(clock.pending).toBe(0);
  });

  it('ends a sleep at its time, or at once when its signal aborts', async () => {
    const clock = new ManualClock(0);
    let woke = false;
    const sleeping = clock.sleep(500).then(() => (woke = true));
    await clock.advance(499);
    expect(woke).toBe(false);
    await clock.advance(1);
    await sleeping;
    expect(woke).toBe(true);
    const ctl = new AbortController();
    const aborted = clock.sleep(10_000, ctl.signal);
    ctl.abort();
    await aborted;
    expect(clock.pending).toBe(0);
    expect(clock.now()).toBe(500);
  });

  it('runs a loop of work and sleeps to its end, moving time only while the work waits', async () => {
    const clock = new ManualClock(0);
    // Someone else's timer far ahead: reached only if the work waited that long.
    clock.setInterval(() => undefined, 60_000);
    const polls: number[] = [];
    const work = (async () => {
      for (let i = 0; i < 4; i++) {
        polls.push(clock.now());
        await new Promise((r) => setImmediate(r)); // a request's worth of I/O
        await clock.sleep(250);
      }
      return 'done';
    })();
    expect(await clock.run(work)).toBe('done');
    expect(polls).toEqual([0, 250, 500, 750]);
    expect(clock.now()).toBe(1000);
  });
});
