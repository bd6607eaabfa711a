import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadManifests } from '../../src/manifest/index.js';
import { driftCommand } from '../../src/cli/commands/drift.js';
import { validateCommand } from '../../src/cli/commands/validate.js';
import { applying, inStory, openStory, planning, type CommandStep, type Story } from '../library/story.js';
import { oktaMethod } from '../e2e/manifests.js';
import { expectCleanRejection } from './corpus.js';

/*
 * Regression: a `fromEnv` secret whose variable is unset was found only when the provider resolved it,
 * after the first GET to Nomad. Plan, apply and drift now check every `fromEnv` while loading manifests
 * (secret.env-missing, at the reference's line and column) and send nothing; validate stays offline
 * and does not read the environment. The commands run in-process on the sandbox's clock.
 */
const AUTH = oktaMethod('{ fromEnv: OKTA_SECRET_NOT_EXPORTED }');

let ws: Story;
beforeAll(async () => {
  ws = await openStory();
  await ws.write('auth.yaml', AUTH);
});
afterAll(async () => ws?.close());

describe('a missing fromEnv secret sent requests before failing', () => {
  const steps: [string, CommandStep][] = [
    ['plan', planning()],
    ['apply --auto-approve', applying()],
    ['drift', (h) => driftCommand(h, ['.'], {})],
  ];
  for (const [command, step] of steps) {
    it(`${command} stops at the reference with nothing sent`, async () => {
      const r = await inStory(ws, step);
      expect(expectCleanRejection(r, command)).toEqual(['auth.yaml:10:34']);
      expect(r.stderr).toContain('environment variable OKTA_SECRET_NOT_EXPORTED is not set');
      expect(ws.sandbox.log.entries()).toEqual([]);
    });
  }

  it('an empty value counts as unset (as the resolver treats it)', async () => {
    const r = await inStory(ws, planning(), {}, { OKTA_SECRET_NOT_EXPORTED: '' });
    expect(r.code).toBe(1);
    expect(ws.sandbox.log.entries()).toEqual([]);
  });

  it('validate does not read the environment', async () => {
    const r = await inStory(ws, (h) => validateCommand(h, ['.'], {}));
    expect(r.code).toBe(0);
    const lib = await loadManifests(['auth.yaml'], { cwd: ws.dir });
    expect(lib.diagnostics).toEqual([]);
  });

  it('with the variable set, plan proceeds', async () => {
    const r = await inStory(ws, planning(), {}, { OKTA_SECRET_NOT_EXPORTED: 'now-it-is-set-42' });
    expect(r.code).toBe(0);
    expect(ws.sandbox.log.entries().length).toBeGreaterThan(0);
  });
});
