import { describe, expect, it } from 'vitest';
import { apply } from '../../src/operations/index.js';
import { TFE_SETTINGS, lambdaManifests } from '../e2e/manifests.js';
import { onClock, storyPerTest } from './story.js';

/*
 * The library waits on the host's clock: with the simulators on the same ManualClock, a run whose steps take a
 * minute each is followed in simulated time, and --run-timeout is measured in that time too.
 */

const story = storyPerTest();

async function lambdaStory(stepDelayMs: number) {
  const s = await story({ sandbox: { stepDelayMs } });
  await s.write('settings.yaml', TFE_SETTINGS);
  await s.write('lambda.yaml', lambdaManifests());
  return s;
}

describe('library operations on the host clock', () => {
  it('follows a run of minute-long steps to its end in simulated time', async () => {
    const s = await lambdaStory(60_000);
    const started = s.clock.now();
    const report = await s.apply({ options: { runTimeoutMs: 3_600_000, pollIntervalMs: 1_000, concurrency: 2 } });
    expect(report.status).toBe('applied');
    if (report.status === 'applied') expect(report.result.counts).toMatchObject({ failed: 0 });
    // The run's plan and apply steps passed on the shared clock.
    expect(s.clock.now() - started).toBeGreaterThanOrEqual(120_000);
  });

  it('measures the run timeout on the host clock: a run slower than it is given up', async () => {
    const s = await lambdaStory(600_000);
    const host = s.host();
    const report = await onClock(s.clock, apply(host, { paths: ['.'], lockTimeoutMs: 0, options: { runTimeoutMs: 60_000, pollIntervalMs: 1_000, concurrency: 2 } }));
    expect(report.status).toBe('applied');
    if (report.status === 'applied') expect(report.result.counts.failed).toBeGreaterThan(0);
  });
});
