import { describe, expect, it } from 'vitest';
import { addressKey } from '../../src/model/kinds.js';
import { CANARY, gh, okta, rule, vpcModule, workspace } from './fixtures.js';
import { World } from './harness.js';

function world(): World {
  const w = new World();
  w.env = { OKTA_SECRET: CANARY };
  return w;
}

const actions = (run: { plan: { changes: { kind: string; name: string; action: string }[] } }) =>
  run.plan.changes.map((c) => `${c.action} ${c.kind}/${c.name}`);

describe('createPlan', () => {
  it('creates what is desired and not live, with secret fields as placeholders and notes', async () => {
    const w = world();
    const run = await w.plan([okta(), gh()]);
    expect(actions(run)).toEqual(['create NomadAuthMethod/gh', 'create NomadAuthMethod/okta']);
    const c = run.plan.changes.find((x) => x.name === 'okta');
    expect(c?.fields.find((f) => f.path === 'config.oidcClientSecret')).toEqual({ path: 'config.oidcClientSecret', before: null, after: '(sensitive)', sensitive: true });
    expect(c?.notes).toContainEqual({ code: 'secret-invisible' });
    expect(run.plan.summary).toEqual({ create: 2, update: 0, delete: 0, upgrade: 0 });
    expect(JSON.stringify(run.plan)).not.toContain(CANARY);
    expect(run.secretDigests['NomadAuthMethod/okta#config.oidcClientSecret']).toMatch(/^scrypt:N=4096,r=8,p=1:[0-9a-f]{64}$/);
    expect(w.nomad.calls).toEqual([]);
  });

  it('after apply, an unchanged manifest plans only no-ops', async () => {
    const w = world();
    await w.converge([okta(), gh()]);
    const run = await w.plan([okta(), gh()]);
    expect(run.plan.changes.every((c) => c.action === 'no-op')).toBe(true);
    expect(run.plan.drift).toEqual([]);
  });

  it('updates a changed field, naming it', async () => {
    const w = world();
    await w.converge([okta(), gh()]);
    const run = await w.plan([okta(), gh({ maxTokenTtl: '2h' })]);
    const c = run.plan.changes.find((x) => x.name === 'gh');
    expect(c?.action).toBe('update');
    expect(c?.fields).toEqual([{ path: 'maxTokenTtl', before: '30m', after: '2h', sensitive: false }]);
    expect(c?.reasons).toEqual([{ code: 'differs', paths: ['maxTokenTtl'] }]);
    expect(run.plan.drift).toEqual([{ kind: 'NomadAuthMethod', name: 'gh', cause: 'pending', fields: [{ path: 'maxTokenTtl', before: '30m', after: '2h', sensitive: false }], detail: { code: 'manifest-changed' } }]);
  });

  it('a rotated secret is an update with placeholders only', async () => {
    const w = world();
    await w.converge([okta()]);
    w.env.OKTA_SECRET = 'rotated-' + CANARY;
    const run = await w.plan([okta()]);
    const c = run.plan.changes[0];
    expect(c?.action).toBe('update');
    expect(c?.reasons).toEqual([{ code: 'secret-changed', paths: ['config.oidcClientSecret'] }]);
    expect(c?.fields).toEqual([{ path: 'config.oidcClientSecret', before: '(sensitive)', after: '(sensitive)', sensitive: true }]);
    expect(JSON.stringify(run.plan)).not.toContain(CANARY);
  });

  it('adopts a live object not in state: update that writes the secret, with notes; a matching one without secrets is a no-op adoption', async () => {
    const w = world();
    w.nomad.live.set('NomadAuthMethod/okta', { id: 'okta', fields: { type: 'OIDC', tokenLocality: 'global', maxTokenTtl: '1h', 'config.oidcClientId': '0oa1' }, secrets: {} });
    w.nomad.live.set('NomadAuthMethod/gh', { id: 'gh', fields: { type: 'JWT', tokenLocality: 'local', maxTokenTtl: '30m', 'config.jwksUrl': 'https://jwks' }, secrets: {} });
    const run = await w.plan([okta(), gh()]);
    const o = run.plan.changes.find((x) => x.name === 'okta');
    expect(o?.action).toBe('update');
    expect(o?.notes).toContainEqual({ code: 'adopted', address: 'NomadAuthMethod/okta' });
    expect(o?.notes.some((n) => n.code === 'secret-unknown')).toBe(true);
    // Matching fields and no secret: nothing to send (decisions.md §9). A no-op marked adopt, not
    // counted as a change, and apply records it without sending it to the provider's apply.
    const g = run.plan.changes.find((x) => x.name === 'gh');
    expect(g).toMatchObject({ action: 'no-op', adopt: true, fields: [], reasons: [{ code: 'adopt' }], notes: [{ code: 'adopt-matches' }] });
    expect(run.plan.summary).toEqual({ create: 0, update: 1, delete: 0, upgrade: 0 });
    const result = await w.apply(run);
    expect(result.adopted).toEqual([{ kind: 'NomadAuthMethod', name: 'gh' }]);
    expect(w.nomad.calls.flatMap((c) => c.changes)).toEqual(['update:NomadAuthMethod/okta']);
    expect(w.backend.doc.records.map(addressKey)).toEqual(['NomadAuthMethod/gh', 'NomadAuthMethod/okta']);
    const again = await w.plan([okta(), gh()]);
    expect(again.plan.summary).toEqual({ create: 0, update: 0, delete: 0, upgrade: 0 });
    expect(again.plan.changes.filter((c) => c.adopt)).toEqual([]);
  });

  it('deletes an owned object removed from the manifests; refuses a protected one with a diagnostic', async () => {
    const w = world();
    await w.converge([okta({}, true), gh()]);
    const run = await w.plan([]);
    expect(actions(run)).toEqual(['delete NomadAuthMethod/gh', 'no-op NomadAuthMethod/okta']);
    expect(run.plan.diagnostics).toEqual([
      expect.objectContaining({ severity: 'error', code: 'plan.protected-delete', summary: expect.stringContaining('NomadAuthMethod/okta') }),
    ]);
    expect(run.plan.diagnostics[0]?.detail).toContain('protected: remove `protect: true`');
    await expect(w.apply(run)).rejects.toMatchObject({ code: 'apply.plan-has-errors' });
    expect(w.nomad.live.has('NomadAuthMethod/okta')).toBe(true);
  });

  it('records a protect change in state before the manifest can be removed', async () => {
    const w = world();
    await w.converge([gh()]);
    const run = await w.plan([{ ...gh(), protect: true }]);
    expect(run.plan.changes[0]).toMatchObject({ action: 'update', fields: [{ path: 'protect', before: false, after: true }] });
    await w.apply(run);
    expect(w.backend.doc.records[0]?.protect).toBe(true);
  });

  it('an owned object gone from live and from the manifests is a no-op dropped from state on apply', async () => {
    const w = world();
    await w.converge([gh()]);
    w.nomad.live.delete('NomadAuthMethod/gh');
    const run = await w.plan([]);
    expect(run.plan.changes).toEqual([expect.objectContaining({ action: 'no-op', notes: [{ code: 'already-gone' }] })]);
    expect(run.plan.drift).toEqual([expect.objectContaining({ cause: 'missing', name: 'gh' })]);
    await w.apply(run);
    expect(w.backend.doc.records).toEqual([]);
  });

  it('an owned object deleted outside converge but still desired is created again', async () => {
    const w = world();
    await w.converge([gh()]);
    w.nomad.live.delete('NomadAuthMethod/gh');
    const run = await w.plan([gh()]);
    expect(run.plan.changes[0]).toMatchObject({ action: 'create', reasons: [{ code: 'missing-live' }] });
    expect(run.plan.drift[0]).toMatchObject({ cause: 'missing' });
  });

  it('classifies drift: outside (naming the field), hidden, and pending', async () => {
    const w = world();
    await w.converge([okta(), gh()]);
    const g = w.nomad.live.get('NomadAuthMethod/gh');
    if (!g) throw new Error('no gh');
    g.fields.tokenLocality = 'global';
    const o = w.nomad.live.get('NomadAuthMethod/okta');
    if (!o) throw new Error('no okta');
    o.hiddenChange = { code: 'secret-hash-moved' };
    const run = await w.plan([okta({ maxTokenTtl: '3h' }), gh()]);
    expect(run.plan.drift.map((d) => `${d.name}:${d.cause}:${d.fields.map((f) => f.path).join(',')}`)).toEqual([
      'gh:outside:tokenLocality',
      'okta:pending:maxTokenTtl',
      'okta:hidden:',
    ]);
    expect(run.plan.drift[0]?.fields[0]).toEqual({ path: 'tokenLocality', before: 'local', after: 'global', sensitive: false });
    // The outside change is also reverted by the plan.
    expect(run.plan.changes.find((c) => c.name === 'gh')).toMatchObject({ action: 'update' });
  });

  it('orders deletes in reverse kind order, then writes in kind order, by name', async () => {
    const w = world();
    await w.converge([okta(), rule('r1', 'okta'), vpcModule(), workspace('ws-a')]);
    const run = await w.plan([gh(), rule('r2', 'gh'), rule('a0', 'gh'), desiredModule('lambda'), workspace('ws-b', 'lambda')]);
    expect(actions(run)).toEqual([
      'delete NoCodeWorkspace/ws-a',
      'delete NoCodeModule/vpc',
      'delete NomadBindingRule/r1',
      'delete NomadAuthMethod/okta',
      'create NomadAuthMethod/gh',
      'create NomadBindingRule/a0',
      'create NomadBindingRule/r2',
      'create NoCodeModule/lambda',
      'create NoCodeWorkspace/ws-b',
    ]);
  });

  it('targets: the targets and what they depend on (said as a notice), unknown targets are errors', async () => {
    const w = world();
    const run = await w.plan([okta(), rule('r1', 'okta'), gh()], {
      targets: [{ kind: 'NomadBindingRule', name: 'r1' }, { kind: 'NomadAuthMethod', name: 'nope' }],
    });
    expect(actions(run)).toEqual(['create NomadAuthMethod/okta', 'create NomadBindingRule/r1']);
    expect(run.reads.map(addressKey)).toEqual(['NomadAuthMethod/okta', 'NomadBindingRule/r1']);
    expect(run.plan.diagnostics.map((d) => `${d.severity}:${d.code}`)).toEqual(['error:plan.unknown-target']);
    expect(run.plan.notices).toEqual([
      { code: 'target-dependency', target: { kind: 'NomadBindingRule', name: 'r1' }, dependency: { kind: 'NomadAuthMethod', name: 'okta' } },
    ]);
    expect(run.views.size).toBe(3);
  });

  it('lets the provider refine a change into several (replace) and keeps their order', async () => {
    const w = world();
    await w.converge([gh()]);
    w.nomad.refineHook = (_view, change) =>
      change.action === 'update' ? [{ ...change, action: 'delete', fields: [] }, { ...change, action: 'create' }] : [change];
    const run = await w.plan([gh({ type: 'OIDC' })]);
    expect(actions(run)).toEqual(['delete NomadAuthMethod/gh', 'create NomadAuthMethod/gh']);
    const result = await w.apply(run);
    expect(result.counts).toEqual({ succeeded: 2, failed: 0, skipped: 0, awaiting: 0 });
    expect(w.nomad.calls.slice(-2).map((c) => c.phase)).toEqual(['delete', 'write']);
  });

  it('puts provider diagnostics on the plan, sorted', async () => {
    const w = world();
    w.nomad.loadDiagnostics = [{ severity: 'error', code: 'nomad.rule.auth-method', summary: 'auth method x neither in manifests nor live' }];
    const run = await w.plan([rule('r1', 'x')]);
    expect(run.plan.diagnostics).toEqual(w.nomad.loadDiagnostics);
  });

  it('fingerprints reads: digest of live {id, fields}, null when absent', async () => {
    const w = world();
    await w.converge([gh()]);
    const run = await w.plan([gh(), okta()]);
    expect(run.reads).toEqual([
      { kind: 'NomadAuthMethod', name: 'gh', digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/), fields: expect.objectContaining({ maxTokenTtl: '30m' }) },
      { kind: 'NomadAuthMethod', name: 'okta', digest: null, fields: {} },
    ]);
  });
});

function desiredModule(name: string) {
  const m = vpcModule();
  return { ...m, name };
}
