import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openWorkspace, spawnCli, type Workspace } from '../e2e/harness.js';
import { startRecordingProxy, type RecordingProxy } from '../reliability/recording-proxy.js';

/*
 * Regression: a first apply (the state new when it started) killed after it sent a create but before it
 * recorded anything left no state at all, so the rerun saw "a new state that would adopt" the object the killed
 * run had made and refused without --adopt-all. A create is now marked in the state before it is sent
 * (decisions.md §28): the rerun takes that object as its own without consent, and still asks for consent
 * for anything else it did not send. The kill lands while the create's answer is held by a loopback proxy of
 * the test's own: the sandbox has made the policy, converge has not heard of it.
 */

let ws: Workspace | undefined;
let proxy: RecordingProxy | undefined;
afterEach(async () => {
  await proxy?.stop();
  proxy = undefined;
  await ws?.close();
  ws = undefined;
});

const policy = (name: string) => `kind: NomadAclPolicy
name: ${name}
spec:
  description: ${name}
  rules: |
    namespace "default" {
      policy = "read"
    }
`;
const SETTINGS = 'kind: Settings\nname: settings\nspec:\n  state: { backend: local, path: .converge/state.json }\n';

describe('a first apply killed between its first create and its first record', () => {
  it('the rerun converges without --adopt-all for what it sent, and still asks for what it did not', async () => {
    ws = await openWorkspace();
    await ws.write('settings.yaml', SETTINGS);
    await ws.write('nomad/alpha.yaml', policy('alpha'));
    await ws.write('nomad/beta.yaml', policy('beta'));
    proxy = await startRecordingProxy(ws.sandbox.nomad.url);
    const held = proxy.holdAnswer((method, path) => method !== 'GET' && path.startsWith('/v1/acl/policy/'));

    const child = spawnCli(['apply', '--auto-approve', '.'], { cwd: ws.dir, env: { ...ws.env, NOMAD_ADDR: proxy.url } });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const exited = new Promise<void>((r) => child.on('close', () => r()));
    const sent = await held;
    child.kill('SIGKILL');
    await exited;
    const made = sent.path.slice('/v1/acl/policy/'.length);
    const other = made === 'alpha' ? 'beta' : 'alpha';
    expect(ws.sandbox.log.writes('nomad').map((e) => `${e.method} ${e.path} ${e.status}`), stderr).toEqual([`POST /v1/acl/policy/${made} 200`]);
    const state = JSON.parse(readFileSync(join(ws.dir, '.converge', 'state.json'), 'utf8')) as { records: unknown[]; sent?: { kind: string; name: string }[] };
    expect(state.records).toEqual([]);
    expect(state.sent?.map((c) => `${c.kind}/${c.name}`)).toEqual([`NomadAclPolicy/${made}`]);

    // Someone else makes the other policy, matching its manifest: not this state's, so it still needs consent.
    const r = await fetch(`${ws.sandbox.nomad.url}/v1/acl/policy/${other}`, {
      method: 'POST',
      headers: { 'X-Nomad-Token': ws.sandbox.nomad.managementToken },
      body: JSON.stringify({ Name: other, Description: other, Rules: 'namespace "default" {\n  policy = "read"\n}\n' }),
    });
    expect(r.status).toBe(200);
    ws.sandbox.log.clear();

    const refused = await ws.cli(['apply', '--auto-approve', '.']);
    expect(refused.code, refused.stdout + refused.stderr).toBe(1);
    expect(refused.stderr).toContain(`refusing to record 1 existing object as owned without consent`);
    expect(refused.stderr).toContain(`NomadAclPolicy/${other}`);
    expect(refused.stderr).not.toContain(`NomadAclPolicy/${made}`);
    expect(ws.sandbox.log.writes()).toEqual([]);

    // Without the other policy in the manifests, the rerun converges with no flag: what it sent is its own.
    rmSync(join(ws.dir, 'nomad', `${other}.yaml`));
    const rerun = await ws.cli(['apply', '--auto-approve', '.']);
    expect(rerun.code, rerun.stdout + rerun.stderr).toBe(0);
    expect(rerun.stdout).toContain(`NomadAclPolicy/${made}`);
    expect(ws.sandbox.log.writes()).toEqual([]);
    const after = JSON.parse(readFileSync(join(ws.dir, '.converge', 'state.json'), 'utf8')) as { records: { kind: string; name: string }[]; sent?: unknown };
    expect(after.records.map((x) => `${x.kind}/${x.name}`)).toEqual([`NomadAclPolicy/${made}`]);
    expect(after.sent).toBeUndefined();
    const plan = await ws.cli(['plan', '--detailed-exitcode', '.']);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  }, 60_000);
});
