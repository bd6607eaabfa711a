import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { givenApplied, openWorkspace, seedNomadAcl, type Workspace } from './harness.js';
import { LOCAL_STATE_SETTINGS, OKTA_METHOD } from './manifests.js';

/*
 * Binding rules end to end: the built CLI against the Nomad sandbox over loopback. Binding rules have only a
 * server UUID (docs/reference/nomad-api.md §10), so identity lives in state; these steps cover create,
 * update (every field sent), re-plan = no changes, state lost then adopted, auth method switched
 * (delete + create with the reason), a management rule warned about, an unknown auth method refused
 * at plan time, and deleting an auth method together with its rules (rules first).
 */

const METHODS = `${OKTA_METHOD}---
kind: NomadAuthMethod
name: gh
spec:
  type: JWT
  tokenLocality: local
  maxTokenTtl: 30m
  config:
    jwksUrl: https://token.actions.example/.well-known/jwks
    boundAudiences: [nomad]
    claimMappings: { repository: repository }
`;

interface RuleOpts {
  engineersDescription?: string;
  engineersSelector?: string | null;
  deployersMethod?: string;
}

function rules(o: RuleOpts = {}): string {
  const selector = o.engineersSelector === null ? '' : `  selector: '${o.engineersSelector ?? '"engineering" in list.groups'}'\n`;
  return `kind: NomadBindingRule
name: engineers
spec:
  authMethod: okta
  description: ${o.engineersDescription ?? 'Engineers get the developer role'}
${selector}  bindType: role
  bindName: developer
---
kind: NomadBindingRule
name: admins
spec:
  authMethod: okta
  selector: '"nomad-admins" in list.groups'
  bindType: management
---
kind: NomadBindingRule
name: deployers
spec:
  authMethod: ${o.deployersMethod ?? 'gh'}
  selector: 'value.repository == "acme/deploy"'
  bindType: policy
  bindName: deploy
---
kind: NomadBindingRule
name: gh-readers
spec:
  authMethod: gh
  bindType: policy
  bindName: read-only
`;
}

interface JsonPlan {
  changes: { kind: string; name: string; action: string; adopt?: boolean; id?: string; reason?: string; notes?: string[]; fields: { path: string; before: unknown; after: unknown }[] }[];
  summary: Record<string, number>;
}

interface LiveRule {
  ID: string;
  AuthMethod: string;
  Description: string;
  Selector: string;
  BindType: string;
  BindName: string;
}

describe('Nomad binding rules end to end (built CLI ↔ sandbox over loopback)', () => {
  let ws: Workspace;
  const headers = () => ({ 'X-Nomad-Token': ws.sandbox.nomad.managementToken });

  async function liveRules(): Promise<LiveRule[]> {
    const stubs = (await (await fetch(`${ws.sandbox.nomad.url}/v1/acl/binding-rules`, { headers: headers() })).json()) as { ID: string }[];
    const out: LiveRule[] = [];
    for (const s of stubs) out.push((await (await fetch(`${ws.sandbox.nomad.url}/v1/acl/binding-rule/${s.ID}`, { headers: headers() })).json()) as LiveRule);
    return out;
  }

  const writePaths = () => ws.sandbox.log.writes('nomad').map((e) => `${e.method} ${e.path}`);

  // Each test starts from a fresh sandbox and directory, and first makes the world it needs
  // (`applied`), so any one of them runs alone (`-t`).
  beforeEach(async () => {
    ws = await openWorkspace();
    // What the rules bind, made outside converge (a rule binding a missing role or policy fails the plan).
    await seedNomadAcl(ws, { policies: ['deploy', 'read-only'], roles: [{ name: 'developer', policies: ['deploy'] }] });
    await ws.write('settings.yaml', LOCAL_STATE_SETTINGS);
    await ws.write('methods.yaml', METHODS);
    await ws.write('rules.yaml', rules());
  });
  afterEach(async () => ws?.close());

  /** The methods and these rules applied by converge; the request log cleared. */
  async function applied(opts: RuleOpts = {}): Promise<void> {
    await ws.write('rules.yaml', rules(opts));
    await givenApplied(ws);
  }

  it('plans the rules with a management warning and sends no write', async () => {
    const r = await ws.cli(['plan', '--json']);
    expect(r.code).toBe(0);
    const plan = JSON.parse(r.stdout) as JsonPlan;
    expect(plan.summary.create).toBe(6);
    const admins = plan.changes.find((c) => c.name === 'admins');
    expect(admins?.notes?.join(' ')).toMatch(/management/);
    expect(writePaths()).toEqual([]);
  });

  it('a non-management token cannot even plan rules (their list needs management, §10): a clear message, no write', async () => {
    const r = await ws.cli(['plan'], { NOMAD_TOKEN: ws.sandbox.nomad.clientToken });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Permission denied');
    expect(r.stderr).toMatch(/management token/);
    expect(r.stdout + r.stderr).not.toContain(ws.sandbox.nomad.clientToken);
    expect(writePaths()).toEqual([]);
  });

  it('creates the rules after their auth methods; a re-plan has no changes', async () => {
    ws.sandbox.log.clear();
    const a = await ws.cli(['apply', '--auto-approve']);
    expect(a.stderr).not.toMatch(/failed/i);
    expect(a.code).toBe(0);
    const writes = writePaths();
    const lastMethod = Math.max(writes.indexOf('POST /v1/acl/auth-method/okta'), writes.indexOf('POST /v1/acl/auth-method/gh'));
    const firstRule = writes.findIndex((w) => w.startsWith('POST /v1/acl/binding-rule'));
    expect(lastMethod).toBeGreaterThanOrEqual(0);
    expect(firstRule).toBeGreaterThan(lastMethod);
    expect(await liveRules()).toHaveLength(4);

    ws.sandbox.log.clear();
    const p = await ws.cli(['plan', '--detailed-exitcode']);
    expect(p.code).toBe(0);
    expect(p.stdout).toContain('No changes');
    expect(writePaths()).toEqual([]);
  });

  it('updates in place, sending every field: a removed selector is cleared, the rest kept', async () => {
    await applied();
    const before = (await liveRules()).find((r) => r.BindName === 'developer');
    await ws.write('rules.yaml', rules({ engineersDescription: 'Engineering staff', engineersSelector: null }));
    const p = await ws.cli(['plan', '--json']);
    const plan = JSON.parse(p.stdout) as JsonPlan;
    const change = plan.changes.find((c) => c.name === 'engineers');
    expect(change?.action).toBe('update');
    expect(change?.fields.map((f) => f.path).sort()).toEqual(['description', 'selector']);

    const a = await ws.cli(['apply', '--auto-approve']);
    expect(a.code).toBe(0);
    const after = (await liveRules()).find((r) => r.BindName === 'developer');
    expect(after?.ID).toBe(before?.ID);
    expect(after).toMatchObject({ Description: 'Engineering staff', Selector: '', BindType: 'role', AuthMethod: 'okta' });
    const again = await ws.cli(['plan', '--detailed-exitcode']);
    expect(again.code).toBe(0);
  });

  it('after the state is lost, adopts the live rules (and says so) instead of creating them twice', async () => {
    await ws.write('rules.yaml', rules());
    expect((await ws.cli(['apply', '--auto-approve'])).code).toBe(0);
    const ids = (await liveRules()).map((r) => r.ID).sort();
    await rm(join(ws.dir, '.converge'), { recursive: true, force: true });

    const p = await ws.cli(['plan', '--json']);
    expect(p.code).toBe(0);
    const plan = JSON.parse(p.stdout) as JsonPlan;
    expect(plan.summary.create).toBe(0);
    for (const name of ['engineers', 'admins', 'deployers', 'gh-readers']) {
      const c = plan.changes.find((x) => x.kind === 'NomadBindingRule' && x.name === name);
      expect(c?.notes?.join(' '), name).toMatch(/adopted existing rule/);
      // Matching exactly: not a change, only an adoption (decisions.md §9), and still said.
      expect(c, name).toMatchObject({ action: 'no-op', adopt: true });
    }
    ws.sandbox.log.clear();
    // A lost state is a new one: it takes the live objects over only with consent (decisions.md §27).
    const a = await ws.cli(['apply', '--auto-approve', '--adopt-all']);
    expect(a.code).toBe(0);
    expect(a.stdout).toContain('Recorded 5 existing objects as owned');
    // Only okta's client secret is written (its live value cannot be read); no rule is sent.
    expect(writePaths()).toEqual(['POST /v1/acl/auth-method/okta']);
    expect((await liveRules()).map((r) => r.ID).sort()).toEqual(ids);
    expect((await ws.cli(['plan', '--detailed-exitcode'])).code).toBe(0);
  });

  it('plans a changed auth method as delete + create with the reason, and applies it', async () => {
    await applied();
    const old = (await liveRules()).find((r) => r.BindName === 'deploy');
    await ws.write('rules.yaml', rules({ deployersMethod: 'okta' }));
    const p = await ws.cli(['plan', '--json']);
    const plan = JSON.parse(p.stdout) as JsonPlan;
    const changes = plan.changes.filter((c) => c.name === 'deployers');
    expect(changes.map((c) => c.action).sort()).toEqual(['create', 'delete']);
    for (const c of changes) expect(c.reason).toMatch(/auth method/);
    expect(changes.find((c) => c.action === 'delete')?.id).toBe(old?.ID);

    const a = await ws.cli(['apply', '--auto-approve']);
    expect(a.code).toBe(0);
    const now = (await liveRules()).filter((r) => r.BindName === 'deploy');
    expect(now).toHaveLength(1);
    expect(now[0]?.AuthMethod).toBe('okta');
    expect(now[0]?.ID).not.toBe(old?.ID);
    expect((await ws.cli(['plan', '--detailed-exitcode'])).code).toBe(0);
  });

  it('refuses at plan time a rule whose auth method is neither in the manifests nor live', async () => {
    await ws.write('typo.yaml', rules().split('---')[3]?.replace('name: gh-readers', 'name: typo').replace('authMethod: gh', 'authMethod: okat') ?? '');
    ws.sandbox.log.clear();
    const p = await ws.cli(['plan']);
    expect(p.code).toBe(1);
    expect(p.stderr).toContain('okat');
    expect(p.stderr).toMatch(/neither in the manifests nor in Nomad/);
    expect(p.stderr).toContain('typo.yaml');
    expect(writePaths()).toEqual([]);
  });

  it('deletes an auth method together with its rules, the rules first', async () => {
    await applied({ deployersMethod: 'okta' });
    await ws.write('methods.yaml', METHODS.split('---')[0] ?? '');
    await ws.write('rules.yaml', rules({ deployersMethod: 'okta' }).split('---').slice(0, 3).join('---'));
    ws.sandbox.log.clear();
    const a = await ws.cli(['apply', '--auto-approve']);
    expect(a.stderr).not.toMatch(/failed/i);
    expect(a.code).toBe(0);
    const writes = writePaths();
    const ruleDelete = writes.findIndex((w) => w.startsWith('DELETE /v1/acl/binding-rule/'));
    const methodDelete = writes.indexOf('DELETE /v1/acl/auth-method/gh');
    expect(ruleDelete).toBeGreaterThanOrEqual(0);
    expect(methodDelete).toBeGreaterThan(ruleDelete);
    const live = await liveRules();
    expect(live.map((r) => r.AuthMethod).sort()).toEqual(['okta', 'okta', 'okta']);
    expect((await ws.cli(['plan', '--detailed-exitcode'])).code).toBe(0);
  });
});
