import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asAny, AUTH_METHOD_POS, jwt, method, rule } from './helpers.js';
import { openRig, SECRET, type Rig } from './harness.js';
import { HIDDEN_CHANGE } from '../../../src/kinds/nomad-auth-method/remote/load.js';
import { adoptedNote, MANAGEMENT_NOTE } from '../../../src/kinds/nomad-binding-rule/remote/load.js';
import { TEMPLATED_BIND_NOTE } from '../../../src/kinds/nomad-binding-rule/remote/checks.js';

let rig: Rig;
beforeEach(async () => {
  rig = await openRig();
});
afterEach(async () => {
  await rig.close();
});

const actions = (planned: { change: { name: string; action: string } }[]) =>
  Object.fromEntries(planned.map((p) => [p.change.name, p.change.action]));

describe('Nomad provider against the simulator: auth methods', () => {
  it('load of an empty server: one list call, creates planned, nothing written', async () => {
    const { planned, load } = await rig.plan([asAny(method('okta')), asAny(jwt('gh'))]);
    expect(load.diagnostics).toEqual([]);
    expect(actions(planned)).toEqual({ okta: 'create', gh: 'create' });
    expect(rig.sim.log.entries().map((e) => `${e.method} ${e.path}`)).toEqual(['GET /v1/acl/auth-methods']);
    // The secret is a digest in the view, never a field.
    const okta = load.views.find((v) => v.name === 'okta');
    expect(okta?.desired?.secrets['config.oidcClientSecret']).toMatch(/^scrypt:N=4096,r=8,p=1:/);
    expect(JSON.stringify(load.views)).not.toContain(SECRET);
  });

  it('nothing desired and nothing owned: no request at all', async () => {
    const load = await rig.provider.load({ desired: [], records: [] }, rig.ctx);
    expect(load.views).toEqual([]);
    expect(rig.sim.log.size).toBe(0);
  });

  it('create, then a re-plan is a no-op costing one request (hash skip)', async () => {
    const { outcomes } = await rig.converge([asAny(method('okta', { default: true })), asAny(jwt('gh'))]);
    expect(outcomes.map((o) => o.status)).toEqual(['succeeded', 'succeeded']);
    const rec = rig.records.get('NomadAuthMethod/okta');
    expect(rec?.id).toBe('okta');
    expect(typeof rec?.extra.hash).toBe('string');
    expect(rec?.secretDigests['config.oidcClientSecret']).toMatch(/^scrypt:N=4096,r=8,p=1:/);
    expect(JSON.stringify([...rig.records.values()])).not.toContain(SECRET);

    // The write carried the secret from the manifest and Default explicitly.
    const write = rig.http.sent.find((r) => r.method === 'POST' && r.path === '/v1/acl/auth-method/okta');
    const body = write?.body as { Default: boolean; Config: { OIDCClientSecret: string }; MaxTokenTTL: string };
    expect(body.Default).toBe(true);
    expect(body.Config.OIDCClientSecret).toBe(SECRET);
    expect(body.MaxTokenTTL).toBe('1h0m0s');

    rig.sim.log.clear();
    const again = await rig.plan([asAny(method('okta', { default: true, maxTokenTtl: '60m' })), asAny(jwt('gh'))]);
    expect(actions(again.planned)).toEqual({ okta: 'no-op', gh: 'no-op' });
    expect(rig.sim.log.entries().map((e) => `${e.method} ${e.path}`)).toEqual(['GET /v1/acl/auth-methods']);
  });

  it('update sends the whole config and never a value read back (no `redacted`)', async () => {
    await rig.converge([asAny(method('okta', { config: { oidcDiscoveryUrl: 'https://idp.example', oidcClientId: 'c1', oidcClientSecret: { fromEnv: 'OIDC_SECRET' }, boundAudiences: ['c1'] } }))]);
    rig.http.sent.length = 0;
    const { outcomes, planned } = await rig.converge([
      asAny(method('okta', { maxTokenTtl: '2h', config: { oidcDiscoveryUrl: 'https://idp.example', oidcClientId: 'c1', oidcClientSecret: { fromEnv: 'OIDC_SECRET' } } })),
    ]);
    expect(planned[0]?.change.fields.map((f) => f.path)).toEqual(['config.boundAudiences', 'maxTokenTtl']);
    expect(outcomes[0]?.status).toBe('succeeded');
    const writes = rig.http.sent.filter((r) => r.method !== 'GET');
    expect(writes).toHaveLength(1);
    const text = JSON.stringify(writes[0]?.body);
    expect(text).not.toContain('redacted');
    expect(text).toContain(SECRET);
    const live = await rig.raw('GET', '/v1/acl/auth-method/okta');
    expect((live.json as { MaxTokenTTL: string; Config: { BoundAudiences: unknown } }).MaxTokenTTL).toBe('2h0m0s');
    expect((live.json as { Config: { BoundAudiences: unknown } }).Config.BoundAudiences).toBeNull();
  });

  it('a hash moved outside converge with every visible field unchanged is a hidden change, not a change', async () => {
    await rig.converge([asAny(method('okta'))]);
    // What `nomad acl auth-method update` does: GET, then POST it back, storing the literal `redacted` (§5).
    const got = await rig.raw('GET', '/v1/acl/auth-method/okta');
    expect((await rig.raw('POST', '/v1/acl/auth-method/okta', got.json)).status).toBe(200);
    const { planned, load } = await rig.plan([asAny(method('okta'))]);
    expect(actions(planned)).toEqual({ okta: 'no-op' });
    expect(load.views[0]?.live?.hiddenChange).toEqual(HIDDEN_CHANGE);
  });

  it('a visible change outside converge is read with a full GET and planned back', async () => {
    await rig.converge([asAny(jwt('gh'))]);
    const got = (await rig.raw('GET', '/v1/acl/auth-method/gh')).json as Record<string, unknown>;
    await rig.raw('POST', '/v1/acl/auth-method/gh', { ...got, TokenLocality: 'global' });
    rig.sim.log.clear();
    const { planned } = await rig.plan([asAny(jwt('gh'))]);
    expect(planned[0]?.change.fields).toEqual([{ path: 'tokenLocality', before: 'global', after: 'local', sensitive: false }]);
    expect(rig.sim.log.entries().map((e) => `${e.method} ${e.path}`)).toEqual(['GET /v1/acl/auth-methods', 'GET /v1/acl/auth-method/gh']);
  });

  it('moves the default: the method losing it is updated first', async () => {
    await rig.converge([asAny(method('okta', { default: true })), asAny(jwt('gh'))]);
    rig.http.sent.length = 0;
    const { outcomes } = await rig.converge([asAny(jwt('gh', { default: true })), asAny(method('okta', { default: false }))]);
    expect(outcomes.every((o) => o.status === 'succeeded')).toBe(true);
    expect(rig.http.sent.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual(['/v1/acl/auth-method/okta', '/v1/acl/auth-method/gh']);
    const list = (await rig.raw('GET', '/v1/acl/auth-methods')).json as { Name: string; Default: boolean }[];
    expect(list.filter((m) => m.Default).map((m) => m.Name)).toEqual(['gh']);
  });

  it('a default held by a method converge does not manage is a plan error at the `default` line', async () => {
    await rig.raw('POST', '/v1/acl/auth-method', {
      Name: 'legacy',
      Type: 'JWT',
      TokenLocality: 'local',
      MaxTokenTTL: '1h',
      Default: true,
      Config: { JWKSURL: 'https://j' },
    });
    const { load } = await rig.plan([asAny(method('okta', { default: true }))]);
    expect(load.diagnostics).toEqual([
      expect.objectContaining({ severity: 'error', code: 'nomad.auth-method.default-taken', range: expect.objectContaining({ start: { line: 6, col: 3 } }) }),
    ]);
  });

  it('delete: removed from the manifests, deleted and forgotten; already gone counts as done', async () => {
    await rig.converge([asAny(method('okta')), asAny(jwt('gh'))]);
    const { outcomes, planned } = await rig.converge([asAny(jwt('gh'))]);
    expect(actions(planned)).toEqual({ okta: 'delete', gh: 'no-op' });
    expect(outcomes).toEqual([expect.objectContaining({ name: 'okta', action: 'delete', status: 'succeeded' })]);
    expect(rig.records.has('NomadAuthMethod/okta')).toBe(false);
    expect(((await rig.raw('GET', '/v1/acl/auth-methods')).json as { Name: string }[]).map((m) => m.Name)).toEqual(['gh']);

    // Deleting a method someone else removed meanwhile (500 `ACL auth method not found`, §8) succeeds.
    const stale = await rig.plan([]);
    await rig.raw('DELETE', '/v1/acl/auth-method/gh');
    rig.sim.log.clear();
    const retriesBefore = rig.http.stats().retries;
    const again = await rig.apply(stale.planned, stale.views);
    expect(again).toEqual([expect.objectContaining({ name: 'gh', status: 'succeeded', detail: { code: 'already-gone' } })]);
    expect(rig.records.size).toBe(0);
    // The 500 is settled by one read, not by six backed-off retries of the delete.
    expect(rig.sim.log.entries().map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual([
      'DELETE /v1/acl/auth-method/gh 500',
      'GET /v1/acl/auth-method/gh 404',
    ]);
    expect(rig.http.stats().retries).toBe(retriesBefore);
  });

  it('a delete that fails with another 500 while the method is still there is sent again, and a lasting one is an error', async () => {
    await rig.converge([asAny(method('okta')), asAny(jwt('gh'))]);
    rig.sim.faults.set({ failNextWrites: 1 });
    const { outcomes } = await rig.converge([asAny(jwt('gh'))]);
    expect(outcomes).toEqual([expect.objectContaining({ name: 'okta', action: 'delete', status: 'succeeded', detail: { code: 'done' } })]);
    expect(rig.sim.log.entries({ method: 'DELETE' }).map((e) => e.status)).toEqual([500, 200]);

    rig.sim.faults.set({ failNextWrites: 100 });
    const failed = await rig.converge([]);
    rig.sim.faults.reset();
    expect(failed.outcomes).toEqual([expect.objectContaining({ name: 'gh', action: 'delete', status: 'failed' })]);
    expect(rig.records.has('NomadAuthMethod/gh')).toBe(true);
  });

  it('a 400 from Nomad is a failed outcome with the server text and the document range; others still apply', async () => {
    const { outcomes } = await rig.converge([asAny(method('bad', { maxTokenTtl: '48h' })), asAny(jwt('gh'))]);
    const bad = outcomes.find((o) => o.name === 'bad');
    expect(bad?.status).toBe('failed');
    expect(bad?.error?.code).toBe('nomad.invalid');
    expect(bad?.error?.message).toContain('MaxTokenTTL');
    expect(bad?.error?.range?.file).toBe('/m/auth.yaml');
    expect(outcomes.find((o) => o.name === 'gh')?.status).toBe('succeeded');
  });

  it('an unresolvable secret is a diagnostic, not a crash', async () => {
    delete rig.env.OIDC_SECRET;
    const { load } = await rig.plan([asAny(method('okta'))]);
    expect(load.diagnostics).toEqual([expect.objectContaining({ severity: 'error', code: 'secret.unresolved' })]);
  });
});

describe('Nomad provider against the simulator: binding rules', () => {
  it('creates a rule after its auth method and records the UUID', async () => {
    const { outcomes } = await rig.converge([asAny(method('okta')), asAny(rule('eng', { authMethod: 'okta', selector: '"eng" in list.groups' }))]);
    expect(outcomes.map((o) => `${o.kind}/${o.name}:${o.status}`)).toEqual(['NomadAuthMethod/okta:succeeded', 'NomadBindingRule/eng:succeeded']);
    const rec = rig.records.get('NomadBindingRule/eng');
    expect(rec?.id).toMatch(/^[0-9a-f-]{36}$/);
    const live = (await rig.raw('GET', `/v1/acl/binding-rule/${rec?.id}`)).json as { Selector: string; BindName: string };
    expect(live).toMatchObject({ Selector: '"eng" in list.groups', BindName: 'eng-${value.team}' });

    rig.sim.log.clear();
    const again = await rig.plan([asAny(method('okta')), asAny(rule('eng', { authMethod: 'okta', selector: '"eng" in list.groups' }))]);
    expect(actions(again.planned)).toEqual({ okta: 'no-op', eng: 'no-op' });
    // Hash skip for both kinds: two list calls, no single reads.
    expect(rig.sim.log.entries().map((e) => e.path)).toEqual(['/v1/acl/auth-methods', '/v1/acl/binding-rules']);
  });

  it('adopts exactly one matching live rule instead of creating a second one', async () => {
    await rig.converge([asAny(method('okta'))]);
    const made = await rig.raw('POST', '/v1/acl/binding-rule', { AuthMethod: 'okta', Selector: '"eng" in list.groups', BindType: 'role', BindName: 'dev-${value.team}' });
    const id = (made.json as { ID: string }).ID;
    // A same-method rule with another bind name is not a match.
    await rig.raw('POST', '/v1/acl/binding-rule', { AuthMethod: 'okta', BindType: 'role', BindName: 'other' });
    const desired = [asAny(method('okta')), asAny(rule('eng', { authMethod: 'okta', selector: '"eng" in list.groups', bindName: 'dev-${value.team}', description: 'engineers' }))];
    // The description differs, so taking it over needs --adopt (decisions.md §17).
    expect((await rig.plan(desired)).planned.find((p) => p.change.name === 'eng')?.change.action).toBe('no-op');
    const { planned } = await rig.plan(desired, { adopt: ['NomadBindingRule/eng'] });
    const eng = planned.find((p) => p.change.name === 'eng');
    expect(eng?.change.action).toBe('update');
    expect(eng?.change.id).toBe(id);
    expect(eng?.change.notes).toContainEqual(adoptedNote(id));
    const { outcomes } = await rig.converge(desired, { adopt: ['NomadBindingRule/eng'] });
    expect(outcomes.find((o) => o.name === 'eng')?.status).toBe('succeeded');
    expect(rig.records.get('NomadBindingRule/eng')?.id).toBe(id);
    const rules = (await rig.raw('GET', '/v1/acl/binding-rules')).json as unknown[];
    expect(rules).toHaveLength(2);
    expect(((await rig.raw('GET', `/v1/acl/binding-rule/${id}`)).json as { Description: string }).Description).toBe('engineers');
  });

  it('a live method and rule matching the manifests exactly are no-op adoptions; adopt() records them without a request and the next plan reads by Hash alone', async () => {
    await rig.raw('POST', '/v1/acl/auth-method/gh', { Name: 'gh', Type: 'JWT', TokenLocality: 'local', MaxTokenTTL: '30m', Config: { JWKSURL: 'https://jwks.example' } });
    const made = await rig.raw('POST', '/v1/acl/binding-rule', { AuthMethod: 'gh', Selector: '"eng" in list.groups', BindType: 'role', BindName: 'dev-${value.team}' });
    const id = (made.json as { ID: string }).ID;
    const desired = [asAny(jwt('gh')), asAny(rule('eng', { authMethod: 'gh', selector: '"eng" in list.groups', bindName: 'dev-${value.team}' }))];
    const { planned, views } = await rig.plan(desired);
    for (const p of planned) expect(p.change, p.change.name).toMatchObject({ action: 'no-op', adopt: true, fields: [] });
    // The rule's adoption is said in the plan even though nothing is sent.
    expect(planned.find((p) => p.change.name === 'eng')?.change.notes).toContainEqual(adoptedNote(id));

    rig.sim.log.clear();
    for (const p of planned) {
      const live = p.view.live;
      if (!live || !rig.provider.adopt) throw new Error('adopt needs a live view and the method');
      const r = rig.provider.adopt({ ...p.view, live }, views, new Date('2026-01-02T00:00:00Z'));
      rig.records.set(`${r.kind}/${r.name}`, r);
    }
    expect(rig.sim.log.entries()).toEqual([]);
    expect(rig.records.get('NomadBindingRule/eng')?.id).toBe(id);
    expect(rig.records.get('NomadAuthMethod/gh')?.extra.hash).toMatch(/\S/);

    const again = await rig.plan(desired);
    expect(again.planned.map((p) => [p.change.action, p.change.adopt ?? false, p.change.notes])).toEqual([
      ['no-op', false, []],
      ['no-op', false, [TEMPLATED_BIND_NOTE]],
    ]);
    // Owned and unchanged: the list calls only (each Hash matches the record's, docs/reference/nomad-api.md §1.2).
    expect(rig.sim.log.entries().map((e) => `${e.method} ${e.path}`)).toEqual(['GET /v1/acl/auth-methods', 'GET /v1/acl/binding-rules']);
  });

  it('changing the auth method replaces the rule (delete + create)', async () => {
    await rig.converge([asAny(method('okta')), asAny(jwt('gh')), asAny(rule('eng', { authMethod: 'okta' }))]);
    const oldId = rig.records.get('NomadBindingRule/eng')?.id;
    const { planned, outcomes } = await rig.converge([asAny(method('okta')), asAny(jwt('gh')), asAny(rule('eng', { authMethod: 'gh' }))]);
    const eng = planned.filter((p) => p.change.name === 'eng').map((p) => p.change);
    expect(eng.map((c) => c.action)).toEqual(['delete', 'create']);
    expect(eng[0]?.reasons).toEqual([{ code: 'replace-auth-method' }]);
    expect(outcomes.filter((o) => o.name === 'eng').map((o) => o.status)).toEqual(['succeeded', 'succeeded']);
    const newId = rig.records.get('NomadBindingRule/eng')?.id;
    expect(newId).not.toBe(oldId);
    const rules = (await rig.raw('GET', '/v1/acl/binding-rules')).json as { ID: string; AuthMethod: string }[];
    expect(rules.map((r) => [r.ID, r.AuthMethod])).toEqual([[newId, 'gh']]);
  });

  it('an update clears a removed description (every field is sent)', async () => {
    await rig.converge([asAny(method('okta')), asAny(rule('eng', { authMethod: 'okta', description: 'old', selector: 'value.a == "b"' }))]);
    await rig.converge([asAny(method('okta')), asAny(rule('eng', { authMethod: 'okta' }))]);
    const id = rig.records.get('NomadBindingRule/eng')?.id;
    const live = (await rig.raw('GET', `/v1/acl/binding-rule/${id}`)).json as { Description: string; Selector: string };
    expect(live).toMatchObject({ Description: '', Selector: '' });
  });

  it('a rule whose auth method exists nowhere is a diagnostic at its authMethod line', async () => {
    const { load } = await rig.plan([asAny(rule('eng', { authMethod: 'nope' }))]);
    expect(load.diagnostics).toEqual([
      expect.objectContaining({ severity: 'error', code: 'nomad.binding-rule.unknown-auth-method', range: AUTH_METHOD_POS }),
    ]);
  });

  it('a rule that keeps using an auth method this plan deletes is a diagnostic, not an orphan', async () => {
    await rig.converge([asAny(method('okta')), asAny(rule('eng', { authMethod: 'okta' }))]);
    // The method's manifest is gone (so converge would delete it), the rule's is not.
    const { load } = await rig.plan([asAny(rule('eng', { authMethod: 'okta' }))]);
    expect(load.diagnostics).toEqual([
      expect.objectContaining({ severity: 'error', code: 'nomad.binding-rule.auth-method-deleted', range: AUTH_METHOD_POS }),
    ]);
    // A live method converge does not own stays usable.
    await rig.raw('POST', '/v1/acl/auth-method/other', {
      // It maps team: the rule's bind name (eng-${value.team}) is checked against a live-only method too.
      Name: 'other', Type: 'JWT', TokenLocality: 'local', MaxTokenTTL: '1h', Default: false, Config: { JWKSURL: 'https://jwks.example', ClaimMappings: { team: 'team' } },
    });
    const other = await rig.plan([asAny(method('okta')), asAny(rule('eng', { authMethod: 'other' }))]);
    expect(other.load.diagnostics).toEqual([]);
  });

  it('a management rule carries a warning note', async () => {
    const { planned } = await rig.plan([asAny(method('okta')), asAny(rule('admins', { authMethod: 'okta', bindType: 'management', bindName: undefined }))]);
    expect(planned.find((p) => p.change.name === 'admins')?.change.notes).toContainEqual(MANAGEMENT_NOTE);
  });

  it('deleting a rule removed from the manifests', async () => {
    await rig.converge([asAny(method('okta')), asAny(rule('eng', { authMethod: 'okta' }))]);
    const { outcomes } = await rig.converge([asAny(method('okta'))]);
    expect(outcomes).toEqual([expect.objectContaining({ name: 'eng', action: 'delete', status: 'succeeded' })]);
    expect((await rig.raw('GET', '/v1/acl/binding-rules')).json).toEqual([]);
  });
});

describe('Nomad provider against the simulator: tokens and faults', () => {
  it('preflight: a management token passes, a non-management token is refused before any write', async () => {
    expect(await rig.provider.preflight?.(rig.ctx, ['NomadAuthMethod'])).toEqual([]);
    const other = await openRig({ token: 'c7e1f4a9-3b2d-4e8f-a6c5-9d0b1e2f3a47' });
    try {
      const diags = await other.provider.preflight?.(other.ctx, ['NomadAuthMethod', 'NomadBindingRule']);
      expect(diags).toEqual([expect.objectContaining({ severity: 'error', code: 'nomad.token.not-management' })]);
      expect(diags?.[0]?.detail).toContain('NOMAD_TOKEN');
      expect(other.sim.log.writes()).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('recovers from injected 429, 500, 503 and resets', async () => {
    rig.sim.faults.set({ rate429: 0.15, rate500: 0.15, rate503: 0.15, rateReset: 0.05, seed: 7 });
    const desired = [asAny(method('okta', { default: true })), asAny(jwt('gh')), asAny(rule('eng', { authMethod: 'okta' })), asAny(rule('ops', { authMethod: 'gh' }))];
    const { outcomes } = await rig.converge(desired);
    expect(outcomes.map((o) => `${o.name}:${o.status}:${o.message ?? ''}`).filter((s) => !s.includes(':succeeded:'))).toEqual([]);
    rig.sim.faults.reset();
    const { planned } = await rig.plan(desired);
    expect(Object.values(actions(planned))).toEqual(['no-op', 'no-op', 'no-op', 'no-op']);
    expect(rig.sim.log.entries().filter((e) => e.fault !== undefined).length).toBeGreaterThan(1);
    expect(rig.http.stats().retries).toBeGreaterThan(0);
    expect(rig.reporter.events.some((e) => e.code === 'http.retry')).toBe(true);
  });

  it('a failed rule create (500 before the model) is retried once a read finds no such rule', async () => {
    await rig.converge([asAny(method('okta'))]);
    rig.sim.faults.set({ failNextWrites: 1 });
    const { outcomes } = await rig.converge([asAny(method('okta')), asAny(rule('eng', { authMethod: 'okta' }))]);
    expect(outcomes.find((o) => o.name === 'eng')?.status).toBe('succeeded');
    expect((await rig.raw('GET', '/v1/acl/binding-rules')).json).toHaveLength(1);
    expect(rig.reporter.events.some((e) => e.code === 'nomad.binding-rule.create-retry')).toBe(true);
  });

  it('an auth method write that fails with 500 is retried (the upsert is keyed by name, §3.1)', async () => {
    rig.sim.faults.set({ failNextWrites: 2 });
    const { outcomes } = await rig.converge([asAny(method('okta'))]);
    expect(outcomes[0]?.status).toBe('succeeded');
  });
});

describe('Nomad provider against a server whose Hash is order-dependent (docs/reference/nomad-api.md §12)', () => {
  it('plan → apply → plan is a no-op, and a rewrite with the same content is at most possible hidden drift', async () => {
    const r = await openRig({ simOptions: { randomMapOrder: true } });
    try {
      const claims = { email: 'email', name: 'name', sub: 'sub', groups: 'groups' };
      const okta = () => asAny(method('okta', { config: { ...method('okta').spec.config, claimMappings: claims } }));
      await r.converge([okta()]);
      for (let i = 0; i < 3; i++) {
        // Each round changes a visible field, so the same maps are hashed again on every write.
        const ttl = ['2h', '3h', '4h'][i] ?? '1h';
        const next = asAny(method('okta', { maxTokenTtl: ttl, config: { ...method('okta').spec.config, claimMappings: claims } }));
        const { outcomes } = await r.converge([next]);
        expect(outcomes.map((o) => o.status)).toEqual(['succeeded']);
        const again = await r.plan([next]);
        expect(actions(again.planned)).toEqual({ okta: 'no-op' });
      }
      // Someone writes the live object back unchanged apart from the literal `redacted` secret (§5):
      // the Hash moves; visible fields do not. Never planned as a change.
      const live = (await r.raw('GET', '/v1/acl/auth-method/okta')).json as Record<string, unknown>;
      expect((await r.raw('POST', '/v1/acl/auth-method/okta', live)).status).toBe(200);
      const after = await r.plan([asAny(method('okta', { maxTokenTtl: '4h', config: { ...method('okta').spec.config, claimMappings: claims } }))]);
      expect(actions(after.planned)).toEqual({ okta: 'no-op' });
      expect(after.views.get('NomadAuthMethod/okta')?.live?.hiddenChange).toEqual(HIDDEN_CHANGE);
    } finally {
      await r.close();
    }
  });
});

describe('Nomad provider: reading a replica region (docs/reference/nomad-api.md §3.1, §7)', () => {
  it('builds views from the authoritative region and reports a lagging replica as one warning, rules included', async () => {
    const r = await openRig({ simOptions: { replicationLagMs: 60_000 } });
    try {
      const desired = [asAny(method('okta')), asAny(rule('eng', { authMethod: 'okta' }))];
      await r.converge(desired);
      const load = await r.provider.load({ desired, records: [...r.records.values()], readRegion: 'europe' }, r.ctx);
      // Views come from the authoritative region: both objects are live there and match (no change).
      expect(load.views.every((v) => v.live !== undefined)).toBe(true);
      expect(load.diagnostics).toEqual([expect.objectContaining({ severity: 'warning', code: 'nomad.replica-lag' })]);
      expect(load.diagnostics[0]?.summary).toMatch(/NomadAuthMethod okta not copied yet; binding rule .+ not copied yet/);

      r.sim.setReplicationLag(0);
      const synced = await r.provider.load({ desired, records: [...r.records.values()], readRegion: 'europe' }, r.ctx);
      expect(synced.diagnostics).toEqual([]);
      expect(r.reporter.events.some((e) => e.code === 'nomad.replica.in-sync')).toBe(true);

      // A region the cluster does not know is an error before any read of it (GET /v1/regions), not a warning.
      await expect(r.provider.load({ desired, records: [...r.records.values()], readRegion: 'mars' }, r.ctx)).rejects.toMatchObject({
        code: 'nomad.unknown-region',
        message: expect.stringContaining('its regions: europe, global'),
      });
    } finally {
      await r.close();
    }
  });
});
