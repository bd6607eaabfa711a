import { describe, expect, it } from 'vitest';
import { workspacePerTest } from './harness.js';
import { TFE_SETTINGS, vpcModule } from './manifests.js';

/*
 * A state deleted a no-code module that live workspaces outside it still used (another state's, or made
 * by hand from the module): removing the module's document planned "1 to delete" and apply deleted it
 * under them. The plan now refuses such a delete, naming the workspaces and the ways out (decisions.md §27).
 * Built CLI against the sandbox.
 */

const workspace = workspacePerTest();

describe('a no-code module used by workspaces outside the state is not deleted (built CLI ↔ sandbox)', () => {
  it('removing its document is refused at plan and apply, naming the workspace; nothing is sent', async () => {
    const ws = await workspace();
    await ws.write('settings.yaml', TFE_SETTINGS);
    await ws.write('vpc.yaml', vpcModule());
    expect((await ws.cli(['apply', '--auto-approve'])).code).toBe(0);
    const record = JSON.parse((await ws.cli(['state', 'show', 'NoCodeModule/vpc'])).stdout) as { id: string };
    // Someone else's workspace made from the module, outside this state.
    const made = await fetch(`${ws.env.TFE_ADDRESS}/api/v2/no-code-modules/${record.id}/workspaces`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ws.env.TFE_TOKEN}`, 'Content-Type': 'application/vnd.api+json' },
      body: JSON.stringify({ data: { type: 'workspaces', attributes: { name: 'vpc-team-b' }, relationships: {} } }),
    });
    expect(made.status, await made.text()).toBe(200);

    await ws.write('vpc.yaml', '# the module moved out of these manifests\n');
    ws.sandbox.log.clear();
    const plan = await ws.cli(['plan', '--allow-empty']);
    expect(plan.code, plan.stdout + plan.stderr).toBe(1);
    expect(plan.stderr).toContain('NoCodeModule/vpc is deleted by this plan (its document is gone), but 1 live workspace outside this state still uses it: vpc-team-b');
    expect(plan.stderr).toContain('converge state rm NoCodeModule/vpc');
    const apply = await ws.cli(['apply', '--auto-approve', '--allow-empty']);
    expect(apply.code).toBe(1);
    expect(ws.sandbox.log.writes('tfe')).toEqual([]);
  });
});
