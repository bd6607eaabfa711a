import { afterEach, describe, expect, it } from 'vitest';
import { createHttpClient } from '../../../src/http/client.js';
import { TfeClient } from '../../../src/providers/tfe/client.js';
import { RunSweeper } from '../../../src/providers/tfe/run-sweep.js';
import { startTfeSimulator, type TfeSimHandle } from '../../../src/sandbox/tfe/index.js';
import { ManualClock } from '../../../src/async/manual-clock.js';

/*
 * After a rollout's canary, its other workspaces ask the sweeper whether a run is in flight. They start one by one,
 * and most asked a few milliseconds after a round had taken its batch: 187 of 199 waited a whole --poll-interval for
 * the next round while nothing else was happening. A crowd of first questions (at least ten per page of the sweep)
 * now gets its round after a quarter of the interval; a few stragglers still wait the whole interval. The sweeps go
 * to the sandbox; the sweeper's waits run on a manual clock, and the test counts sweeps.
 */

let sim: TfeSimHandle | undefined;
let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  await sim?.stop();
  sim = undefined;
  close = undefined;
});

async function sweeperOnSandbox(): Promise<{ sweeper: RunSweeper; clock: ManualClock; sweeps: () => number }> {
  sim = await startTfeSimulator({ port: 0 });
  const http = createHttpClient({ baseUrl: `${sim.url}/api/v2`, headers: { Authorization: `Bearer ${sim.tokens.user}` }, rateLimitPerSecond: 30 });
  close = () => http.close();
  const clock = new ManualClock(0);
  const s = sim;
  const sweeps = () => s.log.entries({ service: 'tfe' }).filter((e) => e.path === `/api/v2/organizations/${s.organization}/workspaces`).length;
  return { sweeper: new RunSweeper(new TfeClient(http, sim.organization), 1000, clock), clock, sweeps };
}

/** `n` first questions about workspaces named `prefix`0…; a question the sweep cannot answer is answered alone. */
function ask(sweeper: RunSweeper, prefix: string, n: number): Promise<string[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => sweeper.askWorkspace(`${prefix}${i}`, () => 'swept', () => Promise.resolve('alone'))));
}

describe('run sweeper: a crowd of first questions is not held a whole interval', () => {
  it('35 workspaces that missed a round by a moment get the next one a quarter interval later', async () => {
    const { sweeper, clock, sweeps } = await sweeperOnSandbox();
    await ask(sweeper, 'ws-early', 5);
    expect(sweeps()).toBe(1);
    const late = ask(sweeper, 'ws-late', 35);
    await clock.advance(300 - clock.now());
    await late;
    expect(sweeps()).toBe(2);
  }, 10_000);

  it('a few stragglers (fewer than ten a page) still wait the whole interval', async () => {
    const { sweeper, clock, sweeps } = await sweeperOnSandbox();
    await ask(sweeper, 'ws-early', 5);
    let answered = false;
    const late = ask(sweeper, 'ws-late', 5).then(() => (answered = true));
    await clock.advance(300 - clock.now());
    await clock.settle();
    expect(answered).toBe(false);
    await clock.advance(1000 - clock.now());
    await late;
    expect(sweeps()).toBe(2);
  });
});
