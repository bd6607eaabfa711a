import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPolicyHcl } from '../../src/kinds/nomad-acl-policy/policy-hcl.js';
import { startNomadSimulator, type NomadSimHandle } from '../../src/sandbox/nomad/index.js';

/*
 * The offline check and the sandbox are written separately (the sandbox shares no code with the client),
 * each from acl/policy.go. Where they disagree on "would Nomad refuse these rules?", one of them misread it.
 */

const CORPUS: string[] = [
  '',
  'namespace "*" { policy = "write" }\nnode { policy = "read" }\n',
  'namespace "default" { policy = "read" capabilities = ["submit-job"] }',
  'namespace "apps" { variables { path "project/*" { capabilities = ["read", "list"] } } }',
  'node_pool "pool_1" { policy = "write" }',
  'host_volume "ca-certs" { capabilities = ["mount-readonly"] }',
  'agent { policy = "read" }\noperator { capabilities = ["snapshot-save"] }\nsentinel { policy = "read" }',
  'quota { policy = "read" }\nplugin { policy = "list" }',
  'Namespace "default" { Policy = "read" }',
  'namespace "default" { capabilites = ["read-job"] }',
  '# only a comment\n',
  'nmespace "default" { policy = "read" }\nnode { policy = "read" }',
  'namespace "default" { policy = "writ" }',
  'namespace "default" { policy = "Read" }',
  'namespace { policy = "read" }',
  'namespace "has a space" { policy = "read" }',
  'host_volume "vol_1" { policy = "read" }',
  'namespace "default" { capabilities = ["submit-jobs"] }',
  'namespace "dev" { variables "*" { capabilities = ["read"] } }',
  'namespace "dev" { variables { path "/nomad/job" { capabilities = ["read"] } } }',
  'namespace "dev" { variables { path "a/*" { capabilities = ["reed"] } } }',
  'agent { policy = "list" }',
  'agent "x" { policy = "read" }',
  'node { policy = "read" }\nnode { policy = "write" }',
  'plugin { policy = "scale" }',
  'quota {}',
  'operator { capabilities = ["snapshot-load"] }',
  'node_pool "prod" { capabilities = ["mount"] }',
  'namespace "default" {\n  policy = "read"\n',
  'node { policy = "read" }\n}',
  'namespace "default" {\n  policy = "read\n}',
  'node {\n  policy "read"\n}',
  'node { policy = @ }',
  '{"namespace": {"default": {"policy": "read", "capabilities": ["submit-job"]}}, "node": {"policy": "read"}}',
  '{"namespace": [{"dev": {"policy": "read", "variables": {"path": {"project/*": {"capabilities": ["read"]}}}}}]}',
  '{"namespace": ',
];

let sim: NomadSimHandle;
beforeAll(async () => {
  sim = await startNomadSimulator({ port: 0 });
});
afterAll(async () => {
  await sim.stop();
});

describe('checkPolicyHcl errors exactly where the sandbox refuses', () => {
  it.each(CORPUS.map((rules, i) => [i, rules]))('case %i: %j', async (_i, rules) => {
    const res = await fetch(`${sim.url}/v1/acl/policy/agree`, {
      method: 'PUT',
      headers: { 'X-Nomad-Token': sim.managementToken },
      body: JSON.stringify({ Name: 'agree', Rules: rules }),
    });
    const text = await res.text();
    const errors = checkPolicyHcl(rules).filter((p) => p.severity === 'error');
    expect(res.status !== 200, `sandbox: ${text}; offline: ${JSON.stringify(errors.map((e) => e.summary))}`).toBe(errors.length > 0);
  });
});
