import { describe, expect, it } from 'vitest';
import { givenApplied, workspacePerTest } from './harness.js';
import { LOCAL_STATE_SETTINGS, OKTA_METHOD } from './manifests.js';

/*
 * An auth method's (or an ACL policy's) live identity is its name: Nomad cannot rename it, so a Moved
 * document cannot avoid the delete and the create. The plan must say so before apply, on both changes,
 * with what refers to the object (the binding rules of the method, which Nomad cannot move to another
 * method either), rather than plan them silently. A Moved document that matches nothing is a warning at
 * its file:line:col saying it can be removed, as in Terraform.
 */

const workspace = workspacePerTest();

const rule = (method: string) => `kind: NomadBindingRule
name: engineers
spec:
  authMethod: ${method}
  selector: '"engineering" in list.groups'
  bindType: policy
  bindName: readonly
`;

interface JsonPlan {
  changes: { kind: string; name: string; action: string; noteCodes?: { code: string; dependents?: string[] }[] }[];
  diagnostics: { severity: string; code: string; summary: string; range?: { file: string; start: { line: number; col: number } } }[];
}

describe('a Moved document of a kind named by its live identity', () => {
  it('plans a delete and a create that both warn, naming the binding rules that go with the method; an unmatched move warns', async () => {
    const ws = await workspace();
    await ws.write('settings.yaml', LOCAL_STATE_SETTINGS);
    await ws.write('method.yaml', OKTA_METHOD);
    await ws.write('policy.yaml', 'kind: NomadAclPolicy\nname: readonly\nspec:\n  rules: |\n    namespace "*" { policy = "read" }\n');
    await ws.write('rule.yaml', rule('okta'));
    await givenApplied(ws);

    await ws.write('method.yaml', OKTA_METHOD.replace('name: okta', 'name: okta-sso'));
    await ws.write('rule.yaml', rule('okta-sso'));
    await ws.write(
      'moves.yaml',
      'kind: Moved\nname: sso\nspec:\n  from: NomadAuthMethod/okta\n  to: NomadAuthMethod/okta-sso\n---\nkind: Moved\nname: stale\nspec:\n  from: NomadAclPolicy/ghost\n  to: NomadAclPolicy/auditors\n',
    );
    await ws.write('auditors.yaml', 'kind: NomadAclPolicy\nname: auditors\nspec:\n  rules: |\n    namespace "*" { policy = "read" }\n');

    const json = await ws.cli(['plan', '--json', '.']);
    expect(json.code, json.stderr).toBe(0);
    const plan = JSON.parse(json.stdout) as JsonPlan;
    const methods = plan.changes.filter((c) => c.kind === 'NomadAuthMethod');
    expect(methods.map((c) => `${c.action} ${c.name}`).sort()).toEqual(['create okta-sso', 'delete okta']);
    for (const c of methods) {
      expect(c.noteCodes).toContainEqual({ code: 'moved-recreates', from: 'NomadAuthMethod/okta', to: 'NomadAuthMethod/okta-sso', dependents: ['NomadBindingRule/engineers'] });
    }
    const unmatched = plan.diagnostics.find((d) => d.code === 'plan.move-unmatched');
    expect(unmatched).toMatchObject({ severity: 'warning', range: { file: 'moves.yaml', start: { line: 7, col: 1 } } });
    expect(unmatched?.summary).toContain('Moved NomadAclPolicy/ghost → NomadAclPolicy/auditors matches nothing');

    const text = await ws.cli(['plan', '--no-color', '.']);
    expect(text.stdout).toContain(
      'warning: Moved NomadAuthMethod/okta → NomadAuthMethod/okta-sso cannot rename in place (the name is the object\'s live identity): it is a delete of the old object and a create of the new; what refers to it changes with it: NomadBindingRule/engineers',
    );
    expect(text.stderr).toContain('it can be removed');
  });
});
