import { describe, expect, it } from 'vitest';
import { addressKey } from '../../src/model/kinds.js';
import type { AnyDesired } from '../../src/model/desired.js';
import { gh, rule } from './fixtures.js';
import { World } from './harness.js';

/*
 * The engine side of planning a subset of paths and of accepted drift, against memory providers: which owned objects a plan given
 * some files leaves alone, and how apply refreshes records (decisions.md §16, §18).
 */

const inFile = (o: AnyDesired, file: string): AnyDesired => ({ ...o, range: { ...o.range, file } }) as AnyDesired;
const actions = (run: { plan: { changes: { action: string; kind: string; name: string; refresh?: string }[] } }) =>
  run.plan.changes.map((c) => `${c.action}${c.refresh !== undefined ? ` refresh ${c.refresh}` : ''} ${c.kind}/${c.name}`);

describe('scope and refresh (engine ↔ memory providers)', () => {
  it('records each document’s file; an object whose file was not read but exists is out of scope, one whose file is gone is deleted', async () => {
    const w = new World();
    await w.converge([inFile(gh(), 'a.yaml'), inFile(rule('r1', 'gh'), 'b.yaml')]);
    expect(w.backend.doc.records.map((r) => `${addressKey(r)} ${r.source ?? '-'}`)).toEqual(['NomadAuthMethod/gh a.yaml', 'NomadBindingRule/r1 b.yaml']);

    const given = await w.plan([inFile(gh(), 'a.yaml')], { files: { read: ['a.yaml'], existing: ['b.yaml'] } });
    expect(actions(given)).toEqual(['no-op NomadAuthMethod/gh']);
    expect(given.plan.notices).toEqual([{ code: 'out-of-scope', objects: [{ kind: 'NomadBindingRule', name: 'r1', source: 'b.yaml' }] }]);

    const gone = await w.plan([inFile(gh(), 'a.yaml')], { files: { read: ['a.yaml'], existing: [] } });
    expect(actions(gone)).toEqual(['delete NomadBindingRule/r1', 'no-op NomadAuthMethod/gh']);
    expect(gone.plan.notices).toBeUndefined();
  });

  it('an apply refreshes an unchanged object whose record lags the live one, or whose document moved', async () => {
    const w = new World();
    await w.converge([inFile(gh(), 'a.yaml')]);
    const live = w.nomad.live.get('NomadAuthMethod/gh');
    if (!live) throw new Error('gh is not live');
    live.fields = { ...live.fields, tokenLocality: 'global' };

    const run = await w.plan([inFile(gh({ tokenLocality: 'global' }), 'moved.yaml')]);
    expect(actions(run)).toEqual(['no-op refresh live NomadAuthMethod/gh']);
    expect(run.plan.changes[0]?.fields).toEqual([{ path: 'tokenLocality', before: 'local', after: 'global', sensitive: false }]);
    const result = await w.apply(run);
    expect(result.refreshed?.map(addressKey)).toEqual(['NomadAuthMethod/gh']);
    expect(w.nomad.calls).toHaveLength(1); // the first converge's create only
    const record = w.backend.doc.records[0];
    expect(record?.applied.tokenLocality).toBe('global');
    expect(record?.source).toBe('moved.yaml');
    expect(actions(await w.plan([inFile(gh({ tokenLocality: 'global' }), 'moved.yaml')]))).toEqual(['no-op NomadAuthMethod/gh']);
  });

  it('--refresh-only takes live values whatever the manifests say and drops the records of objects gone; nothing is sent', async () => {
    const w = new World();
    await w.converge([inFile(gh(), 'a.yaml'), inFile(rule('r1', 'gh'), 'a.yaml')]);
    const live = w.nomad.live.get('NomadAuthMethod/gh');
    if (!live) throw new Error('gh is not live');
    live.fields = { ...live.fields, maxTokenTtl: '2h' };
    w.nomad.live.delete('NomadBindingRule/r1');

    const run = await w.plan([inFile(gh(), 'a.yaml'), inFile(rule('r1', 'gh'), 'a.yaml')], { refreshOnly: true });
    expect(actions(run)).toEqual(['no-op refresh live NomadAuthMethod/gh', 'no-op refresh gone NomadBindingRule/r1']);
    expect(run.plan.notices).toEqual([{ code: 'refresh-only' }]);
    const calls = w.nomad.calls.length;
    await w.apply(run);
    expect(w.nomad.calls).toHaveLength(calls);
    expect(w.backend.doc.records.map((r) => `${addressKey(r)} ${String(r.applied.maxTokenTtl)}`)).toEqual(['NomadAuthMethod/gh 2h']);
  });
});
