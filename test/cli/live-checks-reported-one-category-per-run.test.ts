import { describe, expect, it } from 'vitest';
import { workspacePerTest } from '../e2e/harness.js';
import { TFE_SETTINGS } from '../e2e/manifests.js';

/*
 * Regression: a plan whose manifests had an error (a workspace naming a NoCodeModule document that does not
 * exist) stopped there, and the live checks (a version the registry lacks, a project, an agent pool, a
 * registry module, a policy Nomad does not hold) came one run later: the user fixed one category per run.
 * Now one plan reports them all, each at its file:line:col, and still sends nothing.
 */

const workspace = workspacePerTest();

const MANIFESTS = `kind: NoCodeModule
name: vpc
spec:
  registryModule: acme/vpc/aws
  versionPin: 9.9.9
---
kind: NoCodeModule
name: queue
spec:
  registryModule: acme/queue/aws
---
kind: NoCodeWorkspace
name: vpc-dev
spec:
  module: vpc
  project: Nowhere
  executionMode: agent
  agentPoolId: apool-0000000000000000
---
kind: NoCodeWorkspace
name: app-dev
spec:
  module: vpcs
---
kind: NomadAclRole
name: developer
spec:
  policies: [not-a-policy]
`;

describe('a plan with manifest errors', () => {
  it('reports the live-check problems of the same run, all at once', async () => {
    const ws = await workspace();
    await ws.write('settings.yaml', TFE_SETTINGS);
    await ws.write('all.yaml', MANIFESTS);
    for (const command of [['plan'], ['apply', '--auto-approve']]) {
      ws.sandbox.log.clear();
      const r = await ws.cli(command);
      expect(r.code, r.stderr).toBe(1);
      const found = [...r.stderr.matchAll(/^Error: (.*)\n\n {2}on (all\.yaml line \d+, column \d+):/gm)].map((m) => `${m[2]}: ${m[1]}`);
      expect(found).toEqual([
        'all.yaml line 5, column 15: version 9.9.9 of acme/vpc/aws is not available in the registry',
        'all.yaml line 10, column 19: registry module acme/queue/aws is not in the private registry of organization acme (or the token cannot see it)',
        'all.yaml line 16, column 12: project "Nowhere" not found in organization acme (or the token cannot see it)',
        'all.yaml line 18, column 16: agent pool apool-0000000000000000 is not an agent pool of organization acme',
        'all.yaml line 23, column 11: module "vpcs" is not defined by any NoCodeModule document',
        'all.yaml line 28, column 14: NomadAclRole/developer: policy not-a-policy is neither in the manifests nor in Nomad',
      ]);
      expect(r.stderr).toContain('Did you mean "vpc"?');
      // Read-only: nothing was sent to either service, and no state was written.
      expect(ws.sandbox.log.entries().filter((e) => e.method !== 'GET')).toEqual([]);
    }
  }, 60_000);

  it('says why the live checks did not run when they cannot (no credentials), beside the manifest errors', async () => {
    const ws = await workspace();
    await ws.write('settings.yaml', TFE_SETTINGS);
    await ws.write('all.yaml', MANIFESTS);
    const r = await ws.cli(['plan'], { TFE_TOKEN: '', NOMAD_TOKEN: '' });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('module "vpcs" is not defined by any NoCodeModule document');
    expect(r.stderr).not.toContain('not available in the registry');
    expect(r.stderr).toMatch(/Warning: the manifests were not checked against the live services: (NOMAD|TFE)_TOKEN is not set/);
  }, 60_000);

  it('reads nothing while a secret reference cannot be resolved (the environment is not ready for a run)', async () => {
    const ws = await workspace();
    await ws.write('settings.yaml', TFE_SETTINGS);
    const secret = '  variables:\n    - { key: db_password, value: { fromEnv: NOT_EXPORTED_HERE }, sensitive: true }\n';
    await ws.write('all.yaml', MANIFESTS.replace('  module: vpcs\n', `  module: vpcs\n${secret}`));
    const r = await ws.cli(['plan']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('environment variable NOT_EXPORTED_HERE is not set');
    expect(r.stderr).toContain('module "vpcs" is not defined by any NoCodeModule document');
    expect(ws.sandbox.log.entries()).toEqual([]);
  }, 60_000);
});
