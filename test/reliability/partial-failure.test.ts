import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authMethod, bindingRule, FAST, module, SETTINGS, workspace, type World, openWorld } from './world.js';

/*
 * Partial failure: when one object's change fails for good — a 400 from Nomad, a 422 from
 * HCP Terraform for a workspace variable — independent objects still apply, the summary lists
 * succeeded / failed / skipped with reasons, the exit code is 1, and a rerun after fixing the manifest
 * converges. The refusals come from the recording proxy (the simulators accept these values), answered
 * in each service's error shape: Nomad's text/plain 400 (docs/reference/nomad-api.md §6), HCP Terraform's
 * JSON:API 422 with a source pointer (docs/reference/hcp-terraform-api.md §8).
 */

const REJECTED_AUDIENCE = 'https://rejected.example';
const REJECTED_REGION = 'mars-north-1';

function manifests(opts: { bad: boolean }) {
  const am1 = opts.bad ? authMethod(1, '40m').replace('https://github.com/acme/app-01', REJECTED_AUDIENCE) : authMethod(1, '40m');
  const vpc0 = opts.bad ? workspace('vpc', 0).replace('value: eu-west-1', `value: ${REJECTED_REGION}`) : workspace('vpc', 0).replace('eu-west-1', 'us-east-1');
  return {
    'settings.yaml': SETTINGS(),
    'auth-methods.yaml': [authMethod(0), am1, authMethod(2, '45m')].join('---\n'),
    // br-01 depends on am-01: its change must be skipped, not sent, while am-01 fails.
    'binding-rules.yaml': [bindingRule(0), bindingRule(1).replace('deployers of app 01', 'deployers of app 01 (v2)')].join('---\n'),
    'modules.yaml': [module('vpc', '1.4.0'), module('lambda', '1.0.0')].join('---\n'),
    'workspaces.yaml': [vpc0, workspace('vpc', 1, 'changed'), workspace('lambda', 0), workspace('lambda', 1)].join('---\n'),
  };
}

const BASE = {
  'settings.yaml': SETTINGS(),
  'auth-methods.yaml': [authMethod(0), authMethod(1), authMethod(2)].join('---\n'),
  'binding-rules.yaml': [bindingRule(0), bindingRule(1)].join('---\n'),
  'modules.yaml': [module('vpc', '1.4.0'), module('lambda', '1.0.0')].join('---\n'),
  'workspaces.yaml': [workspace('vpc', 0), workspace('vpc', 1), workspace('lambda', 0)].join('---\n'),
};

describe('partial failure: one object fails for good, the rest applies', () => {
  let world: World;
  const write = async (files: Record<string, string>) => {
    for (const [f, t] of Object.entries(files)) await world.ws.write(f, t);
  };
  beforeAll(async () => {
    world = await openWorld({ seed: 3 });
    await write(BASE);
    const a = await world.cli(['apply', '--auto-approve', ...FAST]);
    expect(a.code).toBe(0);
    world.nomadProxy.log.length = 0;
    world.tfeProxy.log.length = 0;
  });
  afterAll(async () => world?.close());

  it('applies the independent changes, reports each failure and skip with its reason, exits 1', async () => {
    world.nomadProxy.setReject({
      match: (m, p, b) => m === 'POST' && p === '/v1/acl/auth-method/am-01' && b.includes(REJECTED_AUDIENCE),
      status: 400,
      contentType: 'text/plain',
      body: 'auth method 0 invalid: BoundAudiences: audience https://rejected.example is not allowed by this cluster',
    });
    world.tfeProxy.setReject({
      match: (m, p, b) => (m === 'PATCH' || m === 'POST') && /\/vars(\/|$)/.test(p) && b.includes(REJECTED_REGION),
      status: 422,
      contentType: 'application/vnd.api+json',
      body: JSON.stringify({ errors: [{ status: '422', title: 'invalid attribute', detail: `Value ${REJECTED_REGION} is not an allowed region`, source: { pointer: '/data/attributes/value' } }] }),
    });
    await write(manifests({ bad: true }));
    const r = await world.cli(['apply', '--auto-approve', ...FAST]);
    const lines = r.stdout.split('\n');
    const lineOf = (address: string) => lines.find((l) => l.includes(`${address}:`)) ?? lines.find((l) => l.includes(address)) ?? '';
    console.log(`partial failure: exit ${r.code}; ${lines.find((l) => l.startsWith('Apply complete')) ?? '(no summary)'}`);
    expect(r.code).toBe(1);
    // Failed, with the service's own reason.
    expect(lineOf('NomadAuthMethod/am-01')).toMatch(/FAILED/);
    expect(r.stdout).toContain('is not allowed by this cluster');
    expect(lineOf('NoCodeWorkspace/vpc-00')).toMatch(/FAILED/);
    // The service's detail is shown; converge masks the value it echoes (it may be a secret).
    expect(r.stdout).toMatch(/422 invalid attribute\): Value .* is not an allowed region/);
    // Skipped, naming the dependency that failed; never sent.
    expect(lineOf('NomadBindingRule/br-01')).toMatch(/skipped.*NomadAuthMethod\/am-01 \(which it depends on\) failed/);
    expect(world.nomadProxy.log.filter((e) => e.method !== 'GET' && e.path.startsWith('/v1/acl/binding-rule'))).toEqual([]);
    // Independent changes applied.
    for (const ok of ['NomadAuthMethod/am-02', 'NoCodeWorkspace/vpc-01', 'NoCodeWorkspace/lambda-01']) expect(lineOf(ok), ok).toMatch(/ok|[+~] /);
    expect(r.stdout).toMatch(/Apply complete: 3 succeeded, 2 failed, 1 skipped/);
    const p = await world.cli(['plan', '--json']);
    const left = (JSON.parse(p.stdout) as { changes: { kind: string; name: string; action: string }[] }).changes
      .filter((c) => c.action !== 'no-op')
      .map((c) => `${c.kind}/${c.name}`)
      .sort();
    expect(left).toEqual(['NoCodeWorkspace/vpc-00', 'NomadAuthMethod/am-01', 'NomadBindingRule/br-01']);
    // apply --json: the skip is a code with its data, and `message` is the same sentence the text said.
    const j = await world.cli(['apply', '--auto-approve', '--json', ...FAST]);
    const skipped = (JSON.parse(j.stdout) as { outcomes: { name: string }[] }).outcomes.find((o) => o.name === 'br-01');
    expect(skipped).toMatchObject({
      status: 'skipped',
      detail: { code: 'dependency-not-done', dependency: 'NomadAuthMethod/am-01', status: 'failed' },
      message: 'NomadAuthMethod/am-01 (which it depends on) failed',
    });
  });

  it('a rerun after fixing the manifest converges', async () => {
    await write(manifests({ bad: false }));
    const r = await world.cli(['apply', '--auto-approve', ...FAST]);
    expect(r.code).toBe(0);
    const p = await world.cli(['plan', '--detailed-exitcode']);
    expect(p.stdout).toContain('No changes');
    expect(p.code).toBe(0);
  });
});
