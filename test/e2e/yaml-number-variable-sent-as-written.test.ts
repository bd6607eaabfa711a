import { afterEach, describe, expect, it } from 'vitest';
import { openWorkspace, type Workspace } from './harness.js';

/*
 * Regression (issue 15.12): an unquoted variable value `1.10` was sent as "1.1" and `0128` as "128":
 * YAML read them as numbers and converge printed the numbers back. A variable value is text; it is
 * sent as written.
 */

let ws: Workspace | undefined;
afterEach(async () => {
  await ws?.close();
  ws = undefined;
});

async function liveVars(w: Workspace, name: string): Promise<Record<string, string>> {
  const headers = { Authorization: `Bearer ${w.env.TFE_TOKEN}`, Accept: 'application/vnd.api+json' };
  const base = `${w.env.TFE_ADDRESS}/api/v2`;
  const wsDoc = (await (await fetch(`${base}/organizations/acme/workspaces/${name}`, { headers })).json()) as { data: { id: string } };
  const vars = (await (await fetch(`${base}/workspaces/${wsDoc.data.id}/vars`, { headers })).json()) as {
    data: { attributes: { key: string; value: string } }[];
  };
  return Object.fromEntries(vars.data.map((v) => [v.attributes.key, v.attributes.value]));
}

describe('unquoted numbers in variable values', () => {
  it('are sent as written, and the re-plan is clean', async () => {
    ws = await openWorkspace();
    await ws.write('converge.yaml', `kind: Settings
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
---
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
