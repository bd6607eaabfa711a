import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TfeVariable, TfeWorkspaceIntent } from '../../src/kinds/no-code-workspace/intent.js';
import type { NomadWriteIntent } from '../../src/plan/intent.js';
import { givenApplied, workspacePerTest, type Workspace } from './harness.js';
import { LOCAL_STATE_SETTINGS, OKTA_METHOD, TFE_SETTINGS, vpcModule } from './manifests.js';

/*
 * Regression: apply re-derived what to send from the plan's display paths, a second
 * diff of the variables and lists cached by a load in the same process; a saved plan held none of
 * it. Now the plan carries the intent (PATCH settings with the project's id, variable requests with
 * the live variable ids) and apply, in a fresh process, sends exactly that: the sandbox's request
 * bodies, the secret's value swapped for a marker, equal the saved intent. The saved plan holds no
 * secret value, only a reference to the manifest.
 */

const OLD_SECRET = 'intent-old-Pw4Rk7-Zq81';
const NEW_SECRET = 'intent-new-Pw9Tz2-Zq81';
const HIDDEN = '<secret from the manifest>';

const workspace = workspacePerTest();

function manifest(v2: boolean, versionPin?: string): string {
  const vars = v2
    ? `    - { key: region, value: eu-west-1 }
    - { key: db_password, value: { fromEnv: DB_PASSWORD }, sensitive: true }
    - { key: flag, value: shown-now, sensitive: false }
    - { key: added, value: "1", category: env }`
    : `    - { key: region, value: us-east-1 }
    - { key: db_password, value: { fromEnv: DB_PASSWORD }, sensitive: true }
    - { key: flag, value: hidden, sensitive: true }
    - { key: dropped, value: bye }`;
  return `${TFE_SETTINGS}---
${vpcModule(versionPin)}---
kind: NoCodeWorkspace
name: intent
spec:
  module: vpc
${v2 ? '  project: Platform\n  description: second version\n' : ''}  variables:
${vars}
`;
}

interface SentRequest {
  method: string;
  path: string;
  body: unknown;
}

interface SavedChange<I> {
  kind: string;
  name: string;
  action: string;
  id?: string;
  intent?: I;
}

/** `plan --out plan.json` with the secret in the environment; the saved plan holds neither the old nor the new secret. */
async function savedPlan<I>(ws: Workspace, env: Record<string, string>): Promise<SavedChange<I>[]> {
  const plan = await ws.cli(['plan', '--out', 'plan.json', '.'], env);
  expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  const text = await readFile(join(ws.dir, 'plan.json'), 'utf8');
  expect(text).not.toContain(NEW_SECRET);
  expect(text).not.toContain(OLD_SECRET);
  return (JSON.parse(text) as { changes: SavedChange<I>[] }).changes;
}

/** The writes a service received, the new secret's value swapped for the marker. */
function sentWrites(ws: Workspace, service: 'tfe' | 'nomad'): SentRequest[] {
  return ws.sandbox.log.writes(service).map((e) => ({
    method: e.method,
    path: e.path,
    body: e.body === undefined ? undefined : (JSON.parse(e.body.split(NEW_SECRET).join(HIDDEN)) as unknown),
  }));
}

function attributes(v: TfeVariable): Record<string, unknown> {
  return { key: v.key, value: 'text' in v.value ? v.value.text : HIDDEN, description: v.description, category: v.category, hcl: v.hcl, sensitive: v.sensitive };
}

/** The requests the intent says apply sends, in the client's JSON:API wire form. */
function expectedRequests(intent: TfeWorkspaceIntent, workspaceId: string): SentRequest[] {
  const base = `/api/v2/workspaces/${workspaceId}`;
  const out: SentRequest[] = [];
  const s = intent.settings;
  if (s) {
    out.push({
      method: 'PATCH',
      path: base,
      body: {
        data: {
          type: 'workspaces',
          attributes: { ...(s.description !== undefined ? { description: s.description } : {}) },
          ...(s.projectId !== undefined ? { relationships: { project: { data: { id: s.projectId, type: 'projects' } } } } : {}),
        },
      },
    });
  }
  for (const op of intent.variables ?? []) {
    if (op.op === 'delete' || op.op === 'replace') out.push({ method: 'DELETE', path: `${base}/vars/${op.id}`, body: undefined });
    if (op.op === 'create' || op.op === 'replace') out.push({ method: 'POST', path: `${base}/vars`, body: { data: { type: 'vars', attributes: attributes(op.variable) } } });
    if (op.op === 'update') out.push({ method: 'PATCH', path: `${base}/vars/${op.id}`, body: { data: { id: op.id, type: 'vars', attributes: attributes(op.variable) } } });
  }
  return out;
}

describe('a saved plan applied in a fresh process', () => {
  it('sends exactly the intent it carries (bodies, variable ids, project id), and holds no secret', async () => {
    const ws = await workspace();
    await ws.write('converge.yaml', manifest(false));
    await givenApplied(ws, ['--poll-interval', '20ms', '.'], { DB_PASSWORD: OLD_SECRET });

    await ws.write('converge.yaml', manifest(true));
    const saved = await savedPlan<TfeWorkspaceIntent>(ws, { DB_PASSWORD: NEW_SECRET });
    const change = saved.find((c) => c.kind === 'NoCodeWorkspace' && c.name === 'intent');
    expect(change?.action).toBe('update');
    const intent = change?.intent;
    expect(intent?.type).toBe('tfe.no-code-workspace.v1');
    if (!intent || !change?.id) throw new Error('the saved plan carries no intent or workspace id');
    // Resolved at plan time: the project's id, and each live variable's id.
    expect(intent.settings).toEqual({ description: 'second version', projectId: expect.stringMatching(/^prj-/) as unknown });
    expect(intent.variables?.map((o) => `${o.op} ${o.op === 'delete' ? o.key : o.variable.key}`)).toEqual(['update region', 'update db_password', 'replace flag', 'create added', 'delete dropped']);
    for (const o of intent.variables ?? []) if (o.op !== 'create') expect(o.id).toMatch(/^var-/);
    expect(intent.variables?.find((o) => o.op === 'update' && o.variable.key === 'db_password')).toMatchObject({ variable: { value: { manifest: true } } });
    expect(intent.moduleId).toMatch(/^nocode-/);

    ws.sandbox.log.clear();
    const applied = await ws.cli(['apply', '--poll-interval', '20ms', '--plan', 'plan.json', '.'], { DB_PASSWORD: NEW_SECRET });
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(applied.stdout + applied.stderr).not.toContain(NEW_SECRET);
    expect(sentWrites(ws, 'tfe')).toEqual(expectedRequests(intent, change.id));
    // The marker stands for the value read from the environment at send time, and nothing else.
    expect(ws.sandbox.log.writes('tfe').filter((e) => e.body?.includes(NEW_SECRET))).toHaveLength(1);

    const replan = await ws.cli(['plan', '--detailed-exitcode', '.'], { DB_PASSWORD: NEW_SECRET });
    expect(replan.code, replan.stdout + replan.stderr).toBe(0);
  }, 120_000);
});

describe('a saved upgrade plan', () => {
  it('carries the no-code module id and sends the upgrade to it', async () => {
    const ws = await workspace();
    await ws.write('converge.yaml', manifest(false));
    await givenApplied(ws, ['--poll-interval', '20ms', '.'], { DB_PASSWORD: OLD_SECRET });

    await ws.write('converge.yaml', manifest(false, '1.5.0'));
    const saved = await savedPlan<TfeWorkspaceIntent>(ws, { DB_PASSWORD: OLD_SECRET });
    const upgrade = saved.find((c) => c.kind === 'NoCodeWorkspace');
    const moduleId = upgrade?.intent?.moduleId;
    expect(upgrade?.action).toBe('upgrade');
    expect(moduleId).toMatch(/^nocode-/);

    ws.sandbox.log.clear();
    const applied = await ws.cli(['apply', '--poll-interval', '20ms', '--plan', 'plan.json', '.'], { DB_PASSWORD: OLD_SECRET });
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    const upgrades = ws.sandbox.log.writes('tfe').filter((e) => e.path.endsWith('/upgrade'));
    expect(upgrades.map((e) => e.path)).toEqual([`/api/v2/no-code-modules/${moduleId ?? ''}/workspaces/${upgrade?.id ?? ''}/upgrade`]);
  }, 120_000);
});

function nomadManifest(v2: boolean): string {
  const method = v2 ? OKTA_METHOD.replace('maxTokenTtl: 1h', 'maxTokenTtl: 2h') : OKTA_METHOD;
  const described = (what: string) => (v2 ? `${what}, second version` : what);
  return `${LOCAL_STATE_SETTINGS}---
${method}---
kind: NomadAclPolicy
name: readers
spec:
  description: ${described('read jobs')}
  rules: 'namespace "default" { policy = "read" }'
---
kind: NomadAclRole
name: reader
spec:
  description: ${described('readers')}
  policies: [readers]
---
kind: NomadBindingRule
name: engineers
spec:
  authMethod: okta
  description: ${described('engineers read')}
  selector: '"engineering" in list.groups'
  bindType: role
  bindName: reader
`;
}

/** Where the Nomad client sends each kind's write (auth methods and policies by name, rules and roles by UUID with the ID in the body). */
function expectedNomadRequest(kind: string, name: string, intent: NomadWriteIntent): SentRequest {
  const body = { ...intent.body };
  if (intent.secrets?.includes('oidcClientSecret')) body.Config = { ...(body.Config as Record<string, unknown>), OIDCClientSecret: HIDDEN };
  switch (kind) {
    case 'NomadAuthMethod':
      return { method: 'POST', path: `/v1/acl/auth-method/${name}`, body };
    case 'NomadAclPolicy':
      return { method: 'POST', path: `/v1/acl/policy/${name}`, body };
    case 'NomadAclRole':
      return { method: 'POST', path: `/v1/acl/role/${intent.id ?? ''}`, body: { ...body, ID: intent.id } };
    default:
      return { method: 'POST', path: `/v1/acl/binding-rule/${intent.id ?? ''}`, body: { ...body, ID: intent.id } };
  }
}

describe('a saved Nomad plan applied in a fresh process', () => {
  it('sends exactly the bodies it carries, the secret filled from the manifest at send time', async () => {
    const ws = await workspace();
    await ws.write('converge.yaml', nomadManifest(false));
    await givenApplied(ws, ['.'], { OKTA_CLIENT_SECRET: OLD_SECRET });

    await ws.write('converge.yaml', nomadManifest(true));
    const saved = await savedPlan<NomadWriteIntent>(ws, { OKTA_CLIENT_SECRET: NEW_SECRET });
    const updates = saved.filter((c) => c.action === 'update');
    expect(updates.map((c) => `${c.kind}/${c.name}`).sort()).toEqual(['NomadAclPolicy/readers', 'NomadAclRole/reader', 'NomadAuthMethod/okta', 'NomadBindingRule/engineers']);
    const okta = updates.find((c) => c.kind === 'NomadAuthMethod');
    expect(okta?.intent).toMatchObject({ type: 'nomad.write.v1', secrets: ['oidcClientSecret'], body: { MaxTokenTTL: '2h0m0s', Config: { OIDCClientSecret: '' } } });

    ws.sandbox.log.clear();
    const applied = await ws.cli(['apply', '--plan', 'plan.json', '.'], { OKTA_CLIENT_SECRET: NEW_SECRET });
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    const sent = sentWrites(ws, 'nomad');
    const byPath = (a: SentRequest, b: SentRequest) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
    const expected = updates.map((c) => {
      if (!c.intent) throw new Error(`${c.kind}/${c.name} carries no intent`);
      return expectedNomadRequest(c.kind, c.name, c.intent);
    });
    expect(sent.sort(byPath)).toEqual(expected.sort(byPath));
    expect(ws.sandbox.log.writes('nomad').filter((e) => e.body?.includes(NEW_SECRET))).toHaveLength(1);

    const replan = await ws.cli(['plan', '--detailed-exitcode', '.'], { OKTA_CLIENT_SECRET: NEW_SECRET });
    expect(replan.code, replan.stdout + replan.stderr).toBe(0);
  }, 120_000);
});
