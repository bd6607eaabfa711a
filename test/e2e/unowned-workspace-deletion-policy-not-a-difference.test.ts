import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWorkspace, type Workspace } from './harness.js';
import { actions } from './fixtures-first-use.js';
import { lambdaManifests, TFE_SETTINGS } from './manifests.js';

/*
 * A workspace's `deletion` policy is converge's own setting, which HCP Terraform does not hold. An
 * unowned workspace (a state lost, or an apply killed between the create and its state write) was
 * compared on it against a made-up `safe`, so `deletion: destroy` made it "differ from its manifest"
 * and the plan refused to adopt it (decisions.md §17): found by the crash-safety run. Built CLI ↔ sandbox.
 */

describe('an unowned workspace is not told apart from its manifest by the deletion policy (built CLI ↔ sandbox)', () => {
  let ws: Workspace;
  beforeAll(async () => {
    ws = await openWorkspace();
    await ws.write('lambda.yaml', `${TFE_SETTINGS}---\n${lambdaManifests('  deletion: destroy\n')}`);
    const a = await ws.cli(['apply', '--auto-approve', '--poll-interval', '20ms']);
    expect(a.code, a.stderr).toBe(0);
    await rm(join(ws.dir, '.converge'), { recursive: true, force: true });
  });
  afterAll(async () => ws?.close());

  it('plans both objects as adoptions, no error, nothing sent', async () => {
    ws.sandbox.log.clear();
    const r = await ws.cli(['plan', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(actions(r.stdout)).toEqual(['no-op adopt NoCodeModule/lambda', 'no-op adopt NoCodeWorkspace/lambda-dev']);
    expect(ws.sandbox.log.writes()).toEqual([]);
  });
});
