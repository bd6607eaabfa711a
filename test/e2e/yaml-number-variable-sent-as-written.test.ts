import { describe, expect, it } from 'vitest';
import { tfeApi, workspacePerTest, type Workspace } from './harness.js';
import { TFE_SETTINGS, vpcModule } from './manifests.js';

/*
 * Regression: an unquoted variable value `1.10` was sent as "1.1" and `0128` as "128":
 * YAML read them as numbers and converge printed the numbers back. A variable value is text; it is
 * sent as written.
 */

const workspace = workspacePerTest();

async function liveVars(w: Workspace, name: string): Promise<Record<string, string>> {
  const wsDoc = (await tfeApi(w, 'GET', `/organizations/acme/workspaces/${name}`)).body as { data: { id: string } };
  const vars = (await tfeApi(w, 'GET', `/workspaces/${wsDoc.data.id}/vars`)).body as { data: { attributes: { key: string; value: string } }[] };
  return Object.fromEntries(vars.data.map((v) => [v.attributes.key, v.attributes.value]));
}

describe('unquoted numbers in variable values', () => {
  it('are sent as written, and the re-plan is clean', async () => {
    const ws = await workspace();
    await ws.write('converge.yaml', `${TFE_SETTINGS}---
${vpcModule()}---
kind: NoCodeWorkspace
name: numbers
spec:
  module: vpc
  project: Platform
  variables:
    - { key: k8s_version, value: 1.10, category: terraform }
    - { key: account, value: 0128, category: terraform }
    - { key: replicas, value: 3, category: terraform }
    - { key: big, value: 1e3, category: terraform }
    - { key: flag, value: true, category: terraform }
`);
    const apply = await ws.cli(['apply', '--auto-approve', '.']);
    expect(apply.code, apply.stderr).toBe(0);
    expect(await liveVars(ws, 'numbers')).toEqual({ k8s_version: '1.10', account: '0128', replicas: '3', big: '1e3', flag: 'true' });
    const replan = await ws.cli(['plan', '--detailed-exitcode', '.']);
    expect(replan.code, replan.stdout + replan.stderr).toBe(0);
  });
});
