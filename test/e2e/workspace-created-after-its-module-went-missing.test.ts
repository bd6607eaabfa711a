import { afterEach, describe, expect, it } from 'vitest';
import { openWorkspace, type Workspace } from './harness.js';

/*
 * Regression: a workspace planned while its NoCodeModule was gone live (deleted in HCP Terraform outside
 * converge, still in state) carried the module's old id from the state. Apply created the module again,
 * then sent the workspace's create to the old id: 404, and the workspace was never made. The plan knows a
 * module's id only when the module is live; else apply takes the id the module's create just recorded.
 */

let ws: Workspace | undefined;
afterEach(async () => {
  await ws?.close();
  ws = undefined;
});

const MODULE = `kind: Settings
name: settings
spec:
  tfe: { organization: acme }
  state: { backend: local, path: .converge/state.json }
---
kind: NoCodeModule
name: vpc
spec:
  registryModule: acme/vpc/aws
  versionPin: 1.4.0
`;

const WORKSPACE = `---
kind: NoCodeWorkspace
name: after-module-gone
spec:
  module: vpc
  project: Platform
`;

async function deleteNoCodeModule(w: Workspace, id: string): Promise<void> {
  const r = await fetch(`${w.env.TFE_ADDRESS}/api/v2/no-code-modules/${id}`, {
    method: 'DELETE',
    headers: { Authorization: `Bearer ${w.env.TFE_TOKEN}`, 'Content-Type': 'application/vnd.api+json' },
  });
  if (r.status !== 204) throw new Error(`deleting no-code module ${id}: ${r.status} ${await r.text()}`);
}

describe('a workspace planned while its module is gone live', () => {
  it('is created from the module made again in the same apply', async () => {
    ws = await openWorkspace();
    await ws.write('converge.yaml', MODULE);
    const first = await ws.cli(['apply', '--auto-approve', '--json', '.']);
    expect(first.code, first.stderr).toBe(0);
    const oldId = (JSON.parse(first.stdout) as { outcomes: { detail?: { id?: string } }[] }).outcomes[0]?.detail?.id;
    expect(oldId).toMatch(/^nocode-/);
    await deleteNoCodeModule(ws, oldId ?? '');

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
