import { describe, expect, it } from 'vitest';
import { tfeApi, workspacePerTest } from './harness.js';
import { TFE_SETTINGS, vpcModule } from './manifests.js';

/*
 * Regression: a workspace planned while its NoCodeModule was gone live (deleted in HCP Terraform outside
 * converge, still in state) carried the module's old id from the state. Apply created the module again,
 * then sent the workspace's create to the old id: 404, and the workspace was never made. The plan knows a
 * module's id only when the module is live; else apply takes the id the module's create just recorded.
 */

const workspace = workspacePerTest();

const MODULE = `${TFE_SETTINGS}---
${vpcModule()}`;

const WORKSPACE = `---
kind: NoCodeWorkspace
name: after-module-gone
spec:
  module: vpc
  project: Platform
`;

describe('a workspace planned while its module is gone live', () => {
  it('is created from the module made again in the same apply', async () => {
    const ws = await workspace();
    await ws.write('converge.yaml', MODULE);
    const first = await ws.cli(['apply', '--auto-approve', '--json', '.']);
    expect(first.code, first.stderr).toBe(0);
    const oldId = (JSON.parse(first.stdout) as { outcomes: { detail?: { id?: string } }[] }).outcomes[0]?.detail?.id ?? '';
    expect(oldId).toMatch(/^nocode-/);
    expect((await tfeApi(ws, 'DELETE', `/no-code-modules/${oldId}`)).status).toBe(204);

    await ws.write('converge.yaml', MODULE + WORKSPACE);
    ws.sandbox.log.clear();
    const apply = await ws.cli(['apply', '--auto-approve', '--poll-interval', '20ms', '.']);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    const creates = ws.sandbox.log.writes('tfe').filter((e) => e.method === 'POST' && /^\/api\/v2\/no-code-modules\/[^/]+\/workspaces$/.test(e.path));
    expect(creates).toHaveLength(1);
    expect(creates[0]?.path).not.toContain(oldId);
    const replan = await ws.cli(['plan', '--detailed-exitcode', '.']);
    expect(replan.code, replan.stdout + replan.stderr).toBe(0);
  }, 60_000);
});
