import { describe, expect, it } from 'vitest';
import { workspacePerTest } from '../e2e/harness.js';
import { lambdaManifests, OKTA_METHOD, TFE_SETTINGS } from '../e2e/manifests.js';
import { startRecordingProxy, type RecordingProxy } from './recording-proxy.js';

/*
 * Regression: a workspace read answering 200 with `{"data": null}` was taken as "deleted outside
 * converge", and apply sent a duplicate create; a Nomad list answering `null` was read as empty, every
 * owned binding rule "gone" and created again. A success of an unexpected shape is now an error: the
 * run stops before any write, and the same apply converges once the server answers properly.
 */
const workspace = workspacePerTest();

const RULE = `kind: NomadBindingRule
name: okta-engineers
spec:
  authMethod: okta
  selector: '"engineering" in list.groups'
  bindType: policy
  bindName: readonly
`;

const POLICY = `kind: NomadAclPolicy
name: readonly
spec:
  rules: |
    namespace "default" { policy = "read" }
`;

async function withProxy<T>(upstream: string, run: (proxy: RecordingProxy) => Promise<T>): Promise<T> {
  const proxy = await startRecordingProxy(upstream);
  try {
    return await run(proxy);
  } finally {
    await proxy.stop();
  }
}

const writes = (proxy: RecordingProxy) => proxy.log.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);

describe('a success with an unexpected shape is an error, never a deletion', () => {
  it('a workspace read answering 200 {"data": null} sends no second create', async () => {
    const ws = await workspace();
    await ws.write('settings.yaml', TFE_SETTINGS);
    await ws.write('lambda.yaml', lambdaManifests());
    const first = await ws.cli(['apply', '--auto-approve', '--poll-interval', '50ms']);
    expect(first.code, first.stderr).toBe(0);

    await withProxy(ws.env.TFE_ADDRESS as string, async (proxy) => {
      proxy.setReject({
        match: (method, path) => method === 'GET' && path === '/api/v2/organizations/acme/workspaces/lambda-dev',
        status: 200,
        contentType: 'application/vnd.api+json',
        body: '{"data":null}',
      });
      const hostile = await ws.cli(['apply', '--auto-approve', '--poll-interval', '50ms'], { TFE_ADDRESS: proxy.url });
      expect(hostile.code).toBe(1);
      expect(hostile.stderr).toContain('unexpected response from HCP Terraform');
      expect(hostile.stderr).toContain('data null');
      expect(writes(proxy)).toEqual([]);
    });
    const again = await ws.cli(['plan', '--detailed-exitcode']);
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });

  it('a Nomad binding-rule list answering null creates no rule again', async () => {
    const ws = await workspace();
    await ws.write('settings.yaml', TFE_SETTINGS);
    await ws.write('nomad.yaml', [OKTA_METHOD, POLICY, RULE].join('---\n'));
    const first = await ws.cli(['apply', '--auto-approve']);
    expect(first.code, first.stderr).toBe(0);

    await withProxy(ws.env.NOMAD_ADDR as string, async (proxy) => {
      proxy.setReject({ match: (method, path) => method === 'GET' && path === '/v1/acl/binding-rules', status: 200, contentType: 'application/json', body: 'null' });
      const hostile = await ws.cli(['apply', '--auto-approve'], { NOMAD_ADDR: proxy.url });
      expect(hostile.code).toBe(1);
      expect(hostile.stderr).toContain('unexpected response from Nomad');
      expect(writes(proxy)).toEqual([]);
    });
    const again = await ws.cli(['plan', '--detailed-exitcode']);
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });
});
