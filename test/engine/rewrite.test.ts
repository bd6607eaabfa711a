import { describe, expect, it } from 'vitest';
import { forceRewrite, genericChange } from '../../src/engine/generic-change.js';
import type { JsonValue } from '../../src/model/json.js';
import { SENSITIVE_PLACEHOLDER } from '../../src/plan/types.js';
import type { ObjectView } from '../../src/providers/provider.js';
import type { StateRecord } from '../../src/state/types.js';
import { okta } from './fixtures.js';

/*
 * `--rewrite Kind/name`: the way to settle hidden drift. The object is planned as an update that
 * carries every desired secret, so the provider sends them all again.
 */

const FIELDS: Record<string, JsonValue> = { type: 'OIDC', 'config.oidcClientId': 'abc' };
const SECRET = 'config.oidcClientSecret';

function record(): StateRecord {
  return { kind: 'NomadAuthMethod', name: 'okta', id: 'okta', applied: { ...FIELDS }, secretDigests: { [SECRET]: 'sha256:1' }, extra: {}, protect: false, updatedAt: '2026-01-01T00:00:00.000Z' };
}

function view(over: Partial<ObjectView> = {}): ObjectView {
  return {
    kind: 'NomadAuthMethod',
    name: 'okta',
    desired: { object: okta(), fields: { ...FIELDS }, secrets: { [SECRET]: 'sha256:1' } },
    live: { id: 'okta', fields: { ...FIELDS }, extra: {}, hiddenChange: { code: 'secret-hash-moved' } },
    record: record(),
    ...over,
  };
}

describe('forceRewrite', () => {
  it('turns an owned no-op into an update carrying every desired secret, values unknown', () => {
    const v = view();
    const generic = genericChange(v).change;
    expect(generic.action).toBe('no-op');
    const forced = forceRewrite(generic, v);
    expect(forced.action).toBe('update');
    expect(forced.reasons).toEqual([{ code: 'rewrite' }]);
    expect(forced.fields).toEqual([{ path: SECRET, before: SENSITIVE_PLACEHOLDER, after: SENSITIVE_PLACEHOLDER, sensitive: true }]);
  });

  it('keeps the fields of a real update and adds the reason in front', () => {
    const v = view({ desired: { object: okta(), fields: { ...FIELDS, 'config.oidcClientId': 'xyz' }, secrets: { [SECRET]: 'sha256:1' } } });
    const forced = forceRewrite(genericChange(v).change, v);
    expect(forced.action).toBe('update');
    expect(forced.reasons).toEqual([{ code: 'rewrite' }, { code: 'differs', paths: ['config.oidcClientId'] }]);
    expect(forced.fields.map((f) => f.path)).toEqual(['config.oidcClientId', SECRET]);
  });

  it('drops the adopt marker of a matching unowned object (the rewrite is a real change)', () => {
    const v = view({ record: undefined, desired: { object: okta(), fields: { ...FIELDS }, secrets: {} } });
    const generic = genericChange(v).change;
    expect(generic.adopt).toBe(true);
    const forced = forceRewrite(generic, v);
    expect(forced.adopt).toBeUndefined();
    expect(forced.action).toBe('update');
  });

  it('leaves creates and deletes alone', () => {
    const create = view({ live: undefined, record: undefined });
    expect(forceRewrite(genericChange(create).change, create).action).toBe('create');
    const del = view({ desired: undefined });
    expect(forceRewrite(genericChange(del).change, del).action).toBe('delete');
  });
});
