import { describe, expect, it } from 'vitest';
import { adoptedNote, findStaleness, genericChange, toSavedPlan } from '../../src/engine/index.js';
import type { Note } from '../../src/plan/codes.js';

const ADOPT_MATCHES: Note = { code: 'adopt-matches' };
import type { JsonValue } from '../../src/model/json.js';
import { addressKey } from '../../src/model/kinds.js';
import { parseSavedPlan, serializePlan } from '../../src/plan/serialize.js';
import { adoptions, hasChanges } from '../../src/plan/types.js';
import type { ObjectView } from '../../src/providers/provider.js';
import type { StateRecord } from '../../src/state/types.js';
import { CANARY, gh, okta, rule } from './fixtures.js';
import { World } from './harness.js';

/*
 * Adoption of live objects that already match the manifests (decisions.md §9): a no-op marked
 * `adopt`, not a change; apply records it through Provider.adopt and sends nothing for it.
 */

const GH_FIELDS: Record<string, JsonValue> = { type: 'JWT', tokenLocality: 'local', maxTokenTtl: '30m', 'config.jwksUrl': 'https://jwks' };

function view(over: Partial<ObjectView> = {}): ObjectView {
  return {
    kind: 'NomadAuthMethod',
    name: 'gh',
    desired: { object: gh(), fields: { ...GH_FIELDS }, secrets: {} },
    live: { id: 'gh', fields: { ...GH_FIELDS }, extra: {} },
    ...over,
  };
}

const record = (): StateRecord => ({
  kind: 'NomadAuthMethod',
  name: 'gh',
  id: 'gh',
  applied: { ...GH_FIELDS },
  secretDigests: {},
  extra: {},
  protect: false,
  updatedAt: '2026-01-01T00:00:00.000Z',
});

describe('genericChange: adoption', () => {
  it('unowned, every field matching and no secret desired: a no-op marked adopt, with the note', () => {
    const { change, diagnostics } = genericChange(view());
    expect(diagnostics).toEqual([]);
    expect(change).toEqual({ kind: 'NomadAuthMethod', name: 'gh', id: 'gh', action: 'no-op', reasons: [{ code: 'adopt' }], fields: [], notes: [ADOPT_MATCHES], adopt: true });
    expect(hasChanges({ changes: [change] })).toBe(false);
    expect(adoptions({ changes: [change] })).toEqual([change]);
  });

  it("keeps the provider's notes (a binding rule matched by its natural key is still said)", () => {
    const note: Note = { code: 'adopted-rule', id: '1234' };
    const { change } = genericChange(view({ notes: [note] }));
    expect(change.action).toBe('no-op');
    expect(change.notes).toEqual([note, ADOPT_MATCHES]);
  });

  it('unowned with a field that differs: refused with an error naming the field and the ways to take it, nothing planned', () => {
    const { change, diagnostics } = genericChange(view({ live: { id: 'gh', fields: { ...GH_FIELDS, maxTokenTtl: '1h' }, extra: {} } }));
    expect(change.action).toBe('no-op');
    expect(change.adopt).toBeUndefined();
    expect(diagnostics.map((d) => `${d.severity}:${d.code}`)).toEqual(['error:plan.adopt-differs']);
    expect(diagnostics[0]?.summary).toContain('differs from its manifest: maxTokenTtl');
    expect(diagnostics[0]?.detail).toContain('maxTokenTtl: live "1h", manifest "30m"');
    expect(diagnostics[0]?.detail).toContain('--adopt NomadAuthMethod/gh');
    expect(diagnostics[0]?.detail).toContain('converge import NomadAuthMethod/gh');
    expect(diagnostics[0]?.range).toBeDefined();
  });

  it('unowned with a field that differs and --adopt: an update, never marked adopt', () => {
    const { change, diagnostics } = genericChange(view({ live: { id: 'gh', fields: { ...GH_FIELDS, maxTokenTtl: '1h' }, extra: {} } }), { adopt: true });
    expect(diagnostics).toEqual([]);
    expect(change.action).toBe('update');
    expect(change.adopt).toBeUndefined();
    expect(change.reasons).toEqual([{ code: 'differs', paths: ['maxTokenTtl'] }, { code: 'adopt' }]);
    expect(change.fields).toEqual([{ path: 'maxTokenTtl', before: '1h', after: '30m', sensitive: false }]);
    expect(change.notes).toContainEqual(adoptedNote('NomadAuthMethod/gh'));
    expect(change.notes).not.toContainEqual(ADOPT_MATCHES);
  });

  it('unowned with a desired secret converge cannot compare: an update that says it writes the secret', () => {
    const { change } = genericChange(view({ desired: { object: okta(), fields: { ...GH_FIELDS }, secrets: { 'config.oidcClientSecret': 'sha256:x' } } }));
    expect(change.action).toBe('update');
    expect(change.adopt).toBeUndefined();
    expect(change.reasons).toEqual([{ code: 'adopt' }]);
    expect(change.fields).toEqual([{ path: 'config.oidcClientSecret', before: '(sensitive)', after: '(sensitive)', sensitive: true }]);
    expect(change.notes).toContainEqual({ code: 'secret-unknown', paths: ['config.oidcClientSecret'] });
  });

  it('owned and matching: a plain no-op, no adopt marker, no note', () => {
    const { change } = genericChange(view({ record: record() }));
    expect(change).toEqual({ kind: 'NomadAuthMethod', name: 'gh', id: 'gh', action: 'no-op', fields: [], notes: [] });
  });
});

function world(): World {
  const w = new World();
  w.env = { OKTA_SECRET: CANARY };
  return w;
}

/** Live objects matching gh() and rule('dev', 'gh'), made outside converge (state empty). */
function outOfBand(w: World): void {
  w.nomad.live.set('NomadAuthMethod/gh', { id: 'gh', fields: { ...GH_FIELDS }, secrets: {} });
  w.nomad.live.set('NomadBindingRule/dev', { id: 'rule-1', fields: { authMethod: 'gh', bindType: 'role', bindName: 'dev' }, secrets: {} });
}

describe('plan and apply of adoptions', () => {
  it('adoption only: no change, apply records both through Provider.adopt and calls no provider apply; then the plan is clean and removing a document deletes', async () => {
    const w = world();
    outOfBand(w);
    const run = await w.plan([gh(), rule('dev', 'gh')]);
    expect(run.plan.changes.map((c) => `${c.action}${c.adopt ? ' (adopt)' : ''} ${addressKey(c)}`)).toEqual([
      'no-op (adopt) NomadAuthMethod/gh',
      'no-op (adopt) NomadBindingRule/dev',
    ]);
    expect(hasChanges(run.plan)).toBe(false);

    const result = await w.apply(run);
    expect(result.adopted).toEqual([
      { kind: 'NomadAuthMethod', name: 'gh' },
      { kind: 'NomadBindingRule', name: 'dev' },
    ]);
    expect(result.outcomes).toEqual([]);
    expect(w.nomad.calls).toEqual([]);
    expect(w.nomad.adoptCalls).toEqual(['NomadAuthMethod/gh', 'NomadBindingRule/dev']);
    expect(w.backend.doc.records.map((r) => `${addressKey(r)} ${r.id} ${JSON.stringify(r.extra)}`)).toEqual([
      'NomadAuthMethod/gh gh {"adopted":true}',
      'NomadBindingRule/dev rule-1 {"adopted":true}',
    ]);
    expect(w.reporter.events.filter((e) => e.code === 'apply.state.adopted').map((e) => e.message)).toEqual([
      'NomadAuthMethod/gh: recorded as owned (it already matched the manifests; nothing sent)',
      'NomadBindingRule/dev: recorded as owned (it already matched the manifests; nothing sent)',
    ]);

    const again = await w.plan([gh(), rule('dev', 'gh')]);
    expect(again.plan.changes.map((c) => c.action)).toEqual(['no-op', 'no-op']);
    expect(adoptions(again.plan)).toEqual([]);
    // Owned now: a removed document is a delete (nothing unowned would ever be deleted).
    const removed = await w.plan([gh()]);
    expect(removed.plan.changes.filter((c) => c.action !== 'no-op').map((c) => `${c.action} ${addressKey(c)}`)).toEqual(['delete NomadBindingRule/dev']);
  });

  it('adoptions are recorded along with real changes, before any write', async () => {
    const w = world();
    outOfBand(w);
    const run = await w.plan([okta(), gh(), rule('dev', 'gh')]);
    expect(run.plan.summary).toEqual({ create: 1, update: 0, delete: 0, upgrade: 0 });
    const seenAtApply: string[] = [];
    const apply = w.nomad.apply.bind(w.nomad);
    w.nomad.apply = async (batch, ctx) => {
      seenAtApply.push(...['NomadAuthMethod/gh', 'NomadBindingRule/dev'].filter((a) => ctx.record({ kind: a.split('/')[0] as 'NomadAuthMethod', name: a.split('/')[1] ?? '' })));
      return apply(batch, ctx);
    };
    const result = await w.apply(run);
    expect(result.counts).toEqual({ succeeded: 1, failed: 0, skipped: 0, awaiting: 0 });
    expect(result.adopted?.map(addressKey)).toEqual(['NomadAuthMethod/gh', 'NomadBindingRule/dev']);
    expect(w.nomad.calls.flatMap((c) => c.changes)).toEqual(['create:NomadAuthMethod/okta']);
    expect(seenAtApply).toEqual(['NomadAuthMethod/gh', 'NomadBindingRule/dev']);
    expect(w.backend.doc.records.map(addressKey)).toEqual(['NomadAuthMethod/gh', 'NomadAuthMethod/okta', 'NomadBindingRule/dev']);
  });

  it('a targeted plan adopts only its targets and what they depend on', async () => {
    const w = world();
    outOfBand(w);
    const run = await w.plan([gh(), rule('dev', 'gh')], { targets: [{ kind: 'NomadAuthMethod', name: 'gh' }] });
    const result = await w.apply(run);
    expect(result.adopted?.map(addressKey)).toEqual(['NomadAuthMethod/gh']);
    expect(w.backend.doc.records.map(addressKey)).toEqual(['NomadAuthMethod/gh']);
    const withDependency = await w.plan([gh(), rule('dev', 'gh')], { targets: [{ kind: 'NomadBindingRule', name: 'dev' }] });
    expect((await w.apply(withDependency)).adopted?.map(addressKey)).toEqual(['NomadBindingRule/dev']);
  });

  it('a provider refine that turns an adoption into a real change makes it an ordinary adopting change', async () => {
    const w = world();
    outOfBand(w);
    w.nomad.refineHook = (v, change) => (v.name === 'gh' ? [{ ...change, action: 'update', reasons: [{ code: 'upgrade-available' }] }] : [change]);
    const run = await w.plan([gh()]);
    const c = run.plan.changes[0];
    expect(c?.action).toBe('update');
    expect(c?.adopt).toBeUndefined();
    expect(c?.notes).toEqual([adoptedNote('NomadAuthMethod/gh')]);
    const result = await w.apply(run);
    expect(result.adopted).toEqual([]);
    expect(w.nomad.adoptCalls).toEqual([]);
    expect(w.nomad.calls.flatMap((x) => x.changes)).toEqual(['update:NomadAuthMethod/gh']);
  });
});

describe('saved plans with adoptions', () => {
  const META = { paths: ['/m/auth.yaml'], targets: [] };
  const roundTrip = (run: Parameters<typeof toSavedPlan>[0]) => parseSavedPlan(serializePlan(toSavedPlan(run, META)), 'plan.json');

  it('keep the marker through the file and are not stale against the same world', async () => {
    const w = world();
    outOfBand(w);
    const saved = roundTrip(await w.plan([gh()]));
    expect(saved.changes[0]).toMatchObject({ action: 'no-op', adopt: true });
    expect(findStaleness(saved, await w.plan([gh()]))).toEqual([]);
  });

  it('are stale when the live object moved since the plan (it would no longer be a no-op)', async () => {
    const w = world();
    outOfBand(w);
    const saved = roundTrip(await w.plan([gh()]));
    const live = w.nomad.live.get('NomadAuthMethod/gh');
    if (!live) throw new Error('no gh');
    live.fields.maxTokenTtl = '2h';
    expect(findStaleness(saved, await w.plan([gh()]))).toEqual([
      { kind: 'NomadAuthMethod', name: 'gh', field: 'maxTokenTtl', message: 'changed since the plan was made: "30m" → "2h"' },
    ]);
  });

  it('are stale once the object is owned: the saved plan would record what is already recorded', async () => {
    const w = world();
    outOfBand(w);
    const run = await w.plan([gh()]);
    const saved = roundTrip(run);
    await w.apply(run);
    expect(findStaleness(saved, await w.plan([gh()]))).toEqual([
      { kind: 'NomadAuthMethod', name: 'gh', message: 'the change differs from the saved plan: saved adopt (record as owned), now nothing' },
    ]);
  });
});
