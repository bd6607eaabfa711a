import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { storyPerTest, worded } from './story.js';

/*
 * A destroy plan deletes objects whose documents are still in the manifests: its reasons say the deletion was
 * asked for, not that the documents were removed (which would send a reviewer looking for a deleted file).
 */

const story = storyPerTest();

describe('the reasons of a destroy plan', () => {
  it('say "destroy requested" for Nomad objects and for a workspace under its deletion policy', async () => {
    const s = await story({ copyExamples: true });
    await s.apply();

    const destroy = (await s.plan({ destroy: true }))!.run.plan.changes.filter((c) => c.action === 'delete');
    expect(destroy.map((c) => c.kind)).toEqual(expect.arrayContaining(['NomadAuthMethod', 'NomadBindingRule', 'NoCodeWorkspace']));
    for (const c of destroy) {
      expect(c.reasons?.map((r) => r.code)).not.toContain('removed');
      expect(worded(c).reason).toMatch(/^destroy requested/);
    }
    const workspace = destroy.find((c) => c.kind === 'NoCodeWorkspace')!;
    expect(workspace.reasons).toEqual([expect.objectContaining({ code: 'deletion-policy', destroyRequested: true })]);
    expect(worded(workspace).reason).toMatch(/^destroy requested: deletion (safe|destroy|orphan) — /);

    // A document taken out of the manifests is still "removed" in an ordinary plan.
    await rm(join(s.dir, 'nomad/binding-rules.yaml'));
    await rm(join(s.dir, 'nomad/login-tests.yaml')); // its cases name the rules
    const removed = (await s.plan())!.run.plan.changes.filter((c) => c.action === 'delete');
    expect(removed.length).toBeGreaterThan(0);
    for (const c of removed) expect(c.reasons).toEqual([{ code: 'removed' }]);
  });
});
