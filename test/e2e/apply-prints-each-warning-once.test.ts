import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWorkspace, REPO, type Workspace } from './harness.js';

/*
 * Regression: apply loaded and validated the manifests twice (once to find the state backend, once to
 * plan), so every warning was printed twice (2 on plan, 4 on apply) and the files could change between
 * the two reads. The apply operation now loads them once.
 */
describe('apply prints each manifest warning once', () => {
  let ws: Workspace;
  beforeAll(async () => {
    ws = await openWorkspace();
    await ws.write('manifests.yaml', await readFile(join(REPO, 'test/fixtures/manifests/valid/expected-warnings.yaml'), 'utf8'));
  });
  afterAll(async () => ws.close());

  const warnings = (stderr: string) => stderr.split('\n').filter((l) => /^warning\b/i.test(l.trim()));

  it('plan and apply print the same warnings, each once', async () => {
    const plan = await ws.cli(['plan', '--no-color']);
    expect(plan.code, plan.stderr).toBe(0);
    const planned = warnings(plan.stderr);
    expect(planned).toHaveLength(2);
    const apply = await ws.cli(['apply', '--auto-approve', '--no-color']);
    // The server then refuses the 72h TTL, as the warning said it would.
    expect(apply.stderr).toContain('invalid MaxTokenTTL');
    expect(warnings(apply.stderr)).toEqual(planned);
  });
});
