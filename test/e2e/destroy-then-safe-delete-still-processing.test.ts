import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applying, planning, storyPerTest } from '../library/story.js';

/*
 * Regression: with `deletion: destroy`, safe-delete right after the destroy run applies is
 * answered 409 `Latest workspace state is being processed to discover resources, please try again later`
 * (docs/reference/hcp-terraform-api.md §5). converge failed the delete on that first 409. That one 409 is waited out
 * with a bounded backoff; one apply finishes the job. The other 409s stay final. The commands' own code in-process
 * (`Story.run`): the simulator's processing time, the runs and the back-off wait on the story's ManualClock.
 */

const story = storyPerTest();

const FAST = { pollInterval: '20ms', runTimeout: '60s' };

describe('safe-delete after a destroy run', () => {
  it('waits out "state is being processed" and deletes in the same apply', async () => {
    const ws = await story({ copyExamples: true, sandbox: { stateProcessingMs: 1500 } });
    const file = join(ws.dir, 'tfe', 'vpc.yaml');
    await writeFile(file, (await readFile(file, 'utf8')).replace('  deletion: safe', '  deletion: destroy'));
    const first = await ws.run(applying(FAST));
    expect(first.code, first.stdout + first.stderr).toBe(0);

    // Remove the workspace document (keep the module).
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.slice(0, text.indexOf('---\nkind: NoCodeWorkspace')));
    ws.sandbox.log.clear();
    const apply = await ws.run(applying(FAST));
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    expect(apply.stdout).toMatch(/vpc-dev.*destroy run applied; safe-deleted/);
    const safeDeletes = ws.sandbox.log.entries({ service: 'tfe' }).filter((e) => e.path.endsWith('/actions/safe-delete'));
    expect(safeDeletes.map((e) => e.status)).toContain(409);
    expect(safeDeletes.at(-1)?.status).toBe(204);
    expect((await ws.run(planning({ detailedExitcode: true }))).code).toBe(0);
  });
});
