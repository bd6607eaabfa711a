import { describe, expect, it } from 'vitest';
import { progressText } from '../../src/views/apply-progress.js';

// The engine's `apply.change.done` event carries a coded detail and only the bare code in its message;
// the progress line must say the sentence (the demo printed "update succeeded (done-id)").
describe('progress line of a finished change', () => {
  const done = (data: Record<string, unknown>, message: string) => ({ code: 'apply.change.done', level: 'info' as const, message, data: data as never });

  it('words a coded detail as the apply result does', () => {
    const e = done({ kind: 'NoCodeModule', name: 'vpc', action: 'update', status: 'succeeded', detail: { code: 'done-id', id: 'nocode-1', paths: ['versionPin'] } }, 'NoCodeModule/vpc: update succeeded (done-id)');
    const text = progressText(e);
    expect(text).toBe('NoCodeModule/vpc: update succeeded (updated nocode-1: versionPin)');
    expect(text).not.toContain('done-id');
  });

  it("keeps a provider's sentence and a failure's error words as the engine said them", () => {
    expect(progressText(done({ kind: 'NoCodeWorkspace', name: 'a', action: 'update', status: 'succeeded', message: 'as said' }, 'NoCodeWorkspace/a: update succeeded (as said)'))).toBe('NoCodeWorkspace/a: update succeeded (as said)');
    expect(progressText(done({ kind: 'NoCodeWorkspace', name: 'a', action: 'upgrade', status: 'failed', detail: { code: 'done' }, errorCode: 'tfe.run.errored' }, 'NoCodeWorkspace/a: upgrade failed (boom)'))).toBe('NoCodeWorkspace/a: upgrade failed (boom)');
  });

  it('words a failure that has only its code (a planned change missing what planning gives it)', () => {
    const e = done({ kind: 'NoCodeWorkspace', name: 'a', action: 'update', status: 'failed', detail: { code: 'internal-no-live' } }, 'NoCodeWorkspace/a: update failed (internal-no-live)');
    expect(progressText(e)).toBe('NoCodeWorkspace/a: update failed (internal: the planned update has no live object, so nothing was sent: a bug in converge; make the plan again, and report it if this repeats)');
  });

  it('passes every other event through', () => {
    expect(progressText({ code: 'http.retry', level: 'info', message: 'retrying' })).toBe('retrying');
  });
});
