import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applying, givenApplied, listing, planning, storyPerTest, type Story } from '../library/story.js';
import { runCli } from './harness.js';

/*
 * Teardown on purpose (decisions.md §30): `converge plan --destroy` and `converge destroy` plan the deletion of
 * every object the state owns in scope, as if their documents were gone: dependents first, each under its own
 * deletion policy, protected objects refused at plan time, confirmation as apply asks for it. Each step runs the
 * command's own code in this process (its text and exit code) against the simulators on their ManualClock; the
 * refusal for want of a terminal to confirm on runs the built CLI, a process with no TTY.
 */

const workspace = storyPerTest();
const FAST = { pollInterval: '20ms', runTimeout: '60s' };
const NOMAD = ['settings.yaml', 'nomad'];
const TFE = ['settings.yaml', 'tfe'];

const writes = (ws: Story) => ws.sandbox.log.entries().filter((e) => e.method !== 'GET' && e.method !== 'HEAD');
const owned = async (ws: Story) => (await ws.run(listing())).stdout;

describe('converge plan --destroy / converge destroy', () => {
  it('plans every owned Nomad object in scope as a delete, dependents first, and sends nothing', async () => {
    const ws = await workspace({ copyExamples: true });
    await givenApplied(ws, FAST);
    const plan = await ws.run(planning({ destroy: true }, NOMAD));
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('Destroy plan');
    const deleted = [...plan.stdout.matchAll(/^\s*- (Nomad\w+\/[\w-]+)/gm)].map((m) => m[1]);
    expect(deleted).toEqual(expect.arrayContaining(['NomadBindingRule/engineers-are-developers', 'NomadAuthMethod/okta', 'NomadAclRole/developer', 'NomadAclPolicy/operator']));
    // Dependents first: the rules before the method they belong to, the role before its policies.
    expect(deleted.indexOf('NomadBindingRule/engineers-are-developers')).toBeLessThan(deleted.indexOf('NomadAuthMethod/okta'));
    expect(deleted.indexOf('NomadAclRole/developer')).toBeLessThan(deleted.indexOf('NomadAclPolicy/readonly'));
    // The workspaces' files exist but were not given: left alone.
    expect(deleted.some((d) => d?.startsWith('NoCode'))).toBe(false);
    expect(writes(ws)).toEqual([]);
  }, 60_000);

  it('refuses without a terminal or --auto-approve, deletes with it, and a second destroy has nothing to do', async () => {
    const ws = await workspace({ copyExamples: true });
    await givenApplied(ws, FAST);
    const refused = await runCli(['destroy', ...NOMAD], { cwd: ws.dir, env: ws.env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('no terminal to ask on');
    expect(writes(ws)).toEqual([]);

    const done = await ws.run(applying({ destroy: true, ...FAST }, NOMAD));
    expect(done.code, done.stdout + done.stderr).toBe(0);
    expect(await owned(ws)).not.toMatch(/Nomad(AuthMethod|BindingRule|AclRole|AclPolicy)\//);
    const methods = await fetch(`${ws.sandbox.nomad.url}/v1/acl/auth-methods`, { headers: { 'X-Nomad-Token': ws.sandbox.nomad.managementToken } });
    expect(await methods.json()).toEqual([]);

    const again = await ws.run(applying({ destroy: true, ...FAST }, NOMAD));
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('Nothing to destroy');
  }, 90_000);

  it('a saved destroy plan applies as saved', async () => {
    const ws = await workspace({ copyExamples: true });
    await givenApplied(ws, FAST);
    const plan = await ws.run(planning({ destroy: true, target: ['NomadAclRole/developer'], out: 'destroy.json' }, NOMAD));
    expect(plan.code, plan.stderr).toBe(0);
    const r = await ws.run(applying({ autoApprove: false, plan: 'destroy.json', ...FAST }));
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const left = await owned(ws);
    expect(left).not.toContain('NomadAclRole/developer');
    // The rule binding the role depends on it: deleted with it.
    expect(left).not.toContain('NomadBindingRule/engineers-are-developers');
    expect(left).toContain('NomadAclPolicy/readonly');
  }, 60_000);

  it('--target deletes the target and what depends on it, nothing else', async () => {
    const ws = await workspace({ copyExamples: true });
    await givenApplied(ws, FAST);
    const r = await ws.run(applying({ destroy: true, target: ['NomadAuthMethod/okta'], ...FAST }));
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const left = await owned(ws);
    expect(left).not.toContain('NomadAuthMethod/okta');
    expect(left).not.toContain('NomadBindingRule/engineers-are-developers');
    expect(left).toContain('NomadAuthMethod/github-actions');
    expect(left).toContain('NomadAclRole/developer');
    expect(left).toContain('NoCodeWorkspace/vpc-dev');
  }, 90_000);

  it('a protected object makes the destroy plan fail, naming it', async () => {
    const ws = await workspace({ copyExamples: true });
    const file = join(ws.dir, 'nomad', 'acl-policies.yaml');
    await writeFile(file, (await readFile(file, 'utf8')).replace('name: deploy\n', 'name: deploy\nprotect: true\n'));
    await givenApplied(ws, FAST);
    const plan = await ws.run(planning({ destroy: true }, NOMAD));
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain('NomadAclPolicy/deploy is protected');
    expect(writes(ws)).toEqual([]);
  }, 60_000);

  it('says a safe delete will be refused, and --deletion destroy shows in the plan and queues a destroy run', async () => {
    const ws = await workspace({ copyExamples: true });
    await givenApplied(ws, FAST);
    const safe = await ws.run(planning({ destroy: true }, TFE));
    expect(safe.code, safe.stderr).toBe(0);
    expect(safe.stdout).toMatch(/- NoCodeWorkspace\/vpc-dev \(deletion: safe\)/);
    expect(safe.stdout).toMatch(/will be refused: the workspace still manages \d+ resource/);

    const plan = await ws.run(planning({ destroy: true, deletion: 'destroy' }, TFE));
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('--deletion destroy overrides');
    expect(plan.stdout).toMatch(/- NoCodeWorkspace\/vpc-dev \(deletion: destroy\)/);
    expect(plan.stdout).not.toContain('will be refused');

    ws.sandbox.log.clear();
    const r = await ws.run(applying({ destroy: true, deletion: 'destroy', ...FAST }, TFE));
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const runs = ws.sandbox.log.entries({ service: 'tfe' }).filter((e) => e.method === 'POST' && e.path.endsWith('/runs'));
    expect(runs.length).toBeGreaterThan(0);
    expect(await owned(ws)).not.toContain('NoCodeWorkspace/');
  }, 90_000);

  it('--deletion without a destroy plan is refused', async () => {
    const ws = await workspace({ copyExamples: true });
    const r = await ws.run(planning({ deletion: 'destroy' }));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--deletion destroy applies only to a destroy plan');
  }, 30_000);
});
