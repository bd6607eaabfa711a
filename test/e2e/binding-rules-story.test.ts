import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { plan } from '../../src/operations/index.js';
import { onClock, openStory, worded, type Story } from '../library/story.js';
import { openWorkspace, seedNomadAcl, type Workspace } from './harness.js';
import { LOCAL_STATE_SETTINGS, OKTA_METHOD } from './manifests.js';

/*
 * Binding rules end to end: the library against the Nomad simulator in this process (one step keeps the built
 * CLI, for the message a non-management token gets). Binding rules have only a
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

interface LiveRule {
  ID: string;
  AuthMethod: string;
  Description: string;
  Selector: string;
  BindType: string;
  BindName: string;
}

async function liveRules(ws: Pick<Workspace, 'sandbox'>): Promise<LiveRule[]> {
  const headers = { 'X-Nomad-Token': ws.sandbox.nomad.managementToken };
  const stubs = (await (await fetch(`${ws.sandbox.nomad.url}/v1/acl/binding-rules`, { headers })).json()) as { ID: string }[];
  const out: LiveRule[] = [];
  for (const s of stubs) out.push((await (await fetch(`${ws.sandbox.nomad.url}/v1/acl/binding-rule/${s.ID}`, { headers })).json()) as LiveRule);
  return out;
}

/** The directory every step starts from, in a CLI workspace or a library story. */
async function setUp(ws: Pick<Workspace, 'sandbox' | 'write'>): Promise<void> {
  // What the rules bind, made outside converge (a rule binding a missing role or policy fails the plan).
  await seedNomadAcl(ws as Workspace, { policies: ['deploy', 'read-only'], roles: [{ name: 'developer', policies: ['deploy'] }] });
  await ws.write('settings.yaml', LOCAL_STATE_SETTINGS);
  await ws.write('methods.yaml', METHODS);
  await ws.write('rules.yaml', rules());
}

describe('Nomad binding rules: what the built CLI prints', () => {
  let ws: Workspace;
  beforeEach(async () => {
    ws = await openWorkspace();
    await setUp(ws);
  });
  afterEach(async () => ws?.close());

  it('a non-management token cannot even plan rules (their list needs management, §10): a clear message, no write', async () => {
    const r = await ws.cli(['plan'], { NOMAD_TOKEN: ws.sandbox.nomad.clientToken });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Permission denied');
    expect(r.stderr).toMatch(/management token/);
    expect(r.stdout + r.stderr).not.toContain(ws.sandbox.nomad.clientToken);
    expect(ws.sandbox.log.writes('nomad')).toEqual([]);
  });
});

describe('Nomad binding rules end to end (library ↔ simulator in-process)', () => {
  let s: Story;
  const writePaths = () => s.writes('nomad');
  /** The plan's changes with the sentences `plan --json` gives them. */
  const changesOf = async () => (await s.plan())!.run.plan.changes.map(worded);
  const clean = async () => (await s.plan())!.run.plan.changes.every((c) => c.action === 'no-op' && !c.adopt);

  // Each test starts from a fresh simulator and directory, and first makes the world it needs
  // (`applied`), so any one of them runs alone (`-t`).
  beforeEach(async () => {
    s = await openStory();
    await setUp(s);
  });
  afterEach(async () => s?.close());

  /** The methods and these rules applied by converge; the request log cleared. */
  async function applied(opts: RuleOpts = {}): Promise<void> {
    await s.write('rules.yaml', rules(opts));
    expect((await s.apply()).status).toBe('applied');
    s.sandbox.log.clear();
  }

  it('plans the rules with a management warning and sends no write', async () => {
    const changes = await changesOf();
    expect(changes.filter((c) => c.action === 'create')).toHaveLength(6);
    const admins = changes.find((c) => c.name === 'admins');
    expect(admins?.notes.join(' ')).toMatch(/management/);
    expect(writePaths()).toEqual([]);
  });

  it('creates the rules after their auth methods; a re-plan has no changes', async () => {
    s.sandbox.log.clear();
    expect((await s.apply()).status).toBe('applied');
    const writes = writePaths();
    const lastMethod = Math.max(writes.indexOf('POST /v1/acl/auth-method/okta'), writes.indexOf('POST /v1/acl/auth-method/gh'));
    const firstRule = writes.findIndex((w) => w.startsWith('POST /v1/acl/binding-rule'));
    expect(lastMethod).toBeGreaterThanOrEqual(0);
    expect(firstRule).toBeGreaterThan(lastMethod);
    expect(await liveRules(s)).toHaveLength(4);

    s.sandbox.log.clear();
    expect(await clean()).toBe(true);
    expect(writePaths()).toEqual([]);
  });

  it('updates in place, sending every field: a removed selector is cleared, the rest kept', async () => {
    await applied();
    const before = (await liveRules(s)).find((r) => r.BindName === 'developer');
    await s.write('rules.yaml', rules({ engineersDescription: 'Engineering staff', engineersSelector: null }));
    const change = (await changesOf()).find((c) => c.name === 'engineers');
    expect(change?.action).toBe('update');
    expect(change?.fields.map((f) => f.path).sort()).toEqual(['description', 'selector']);

    expect((await s.apply()).status).toBe('applied');
    const after = (await liveRules(s)).find((r) => r.BindName === 'developer');
    expect(after?.ID).toBe(before?.ID);
    expect(after).toMatchObject({ Description: 'Engineering staff', Selector: '', BindType: 'role', AuthMethod: 'okta' });
    expect(await clean()).toBe(true);
  });

  it('after the state is lost, adopts the live rules (and says so) instead of creating them twice', async () => {
    await applied();
    const ids = (await liveRules(s)).map((r) => r.ID).sort();
    await rm(join(s.dir, '.converge'), { recursive: true, force: true });

    const changes = await changesOf();
    expect(changes.filter((c) => c.action === 'create')).toEqual([]);
    for (const name of ['engineers', 'admins', 'deployers', 'gh-readers']) {
      const c = changes.find((x) => x.kind === 'NomadBindingRule' && x.name === name);
      expect(c?.notes.join(' '), name).toMatch(/adopted existing rule/);
      // Matching exactly: not a change, only an adoption (decisions.md §9), and still said.
      expect(c, name).toMatchObject({ action: 'no-op', adopt: true });
    }
    s.sandbox.log.clear();
    // A lost state is a new one: it takes the live objects over only with consent (decisions.md §27).
    const a = await s.apply({ adoptAll: true });
    expect(a.status).toBe('applied');
    if (a.status === 'applied') expect(a.run.plan.changes.filter((c) => c.adopt)).toHaveLength(5);
    // Only okta's client secret is written (its live value cannot be read); no rule is sent.
    expect(writePaths()).toEqual(['POST /v1/acl/auth-method/okta']);
    expect((await liveRules(s)).map((r) => r.ID).sort()).toEqual(ids);
    expect(await clean()).toBe(true);
  });

  it('plans a changed auth method as delete + create with the reason, and applies it', async () => {
    await applied();
    const old = (await liveRules(s)).find((r) => r.BindName === 'deploy');
    await s.write('rules.yaml', rules({ deployersMethod: 'okta' }));
    const changes = (await changesOf()).filter((c) => c.name === 'deployers');
    expect(changes.map((c) => c.action).sort()).toEqual(['create', 'delete']);
    for (const c of changes) expect(c.reason).toMatch(/auth method/);
    expect(changes.find((c) => c.action === 'delete')?.id).toBe(old?.ID);

    expect((await s.apply()).status).toBe('applied');
    const now = (await liveRules(s)).filter((r) => r.BindName === 'deploy');
    expect(now).toHaveLength(1);
    expect(now[0]?.AuthMethod).toBe('okta');
    expect(now[0]?.ID).not.toBe(old?.ID);
    expect(await clean()).toBe(true);
  });

  it('refuses at plan time a rule whose auth method is neither in the manifests nor live', async () => {
    await s.write('typo.yaml', rules().split('---')[3]?.replace('name: gh-readers', 'name: typo').replace('authMethod: gh', 'authMethod: okat') ?? '');
    s.sandbox.log.clear();
    const host = s.host();
    expect(await onClock(s.clock, plan(host, { paths: ['.'] }))).toBeUndefined();
    const errors = host.found.filter((d) => d.severity === 'error');
    expect(errors.map((d) => d.summary).join('\n')).toMatch(/okat.*neither in the manifests nor in Nomad/);
    expect(errors.some((d) => d.range?.file === 'typo.yaml')).toBe(true);
    expect(writePaths()).toEqual([]);
  });

  it('deletes an auth method together with its rules, the rules first', async () => {
    await applied({ deployersMethod: 'okta' });
    await s.write('methods.yaml', METHODS.split('---')[0] ?? '');
    await s.write('rules.yaml', rules({ deployersMethod: 'okta' }).split('---').slice(0, 3).join('---'));
    s.sandbox.log.clear();
    expect((await s.apply()).status).toBe('applied');
    const writes = writePaths();
    const ruleDelete = writes.findIndex((w) => w.startsWith('DELETE /v1/acl/binding-rule/'));
    const methodDelete = writes.indexOf('DELETE /v1/acl/auth-method/gh');
    expect(ruleDelete).toBeGreaterThanOrEqual(0);
    expect(methodDelete).toBeGreaterThan(ruleDelete);
    const live = await liveRules(s);
    expect(live.map((r) => r.AuthMethod).sort()).toEqual(['okta', 'okta', 'okta']);
    expect(await clean()).toBe(true);
  });
});
