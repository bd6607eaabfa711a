import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../src/model/json.js';
import { canonicalJson } from '../../src/plan/canonical.js';
import { diffFields, diffSecrets } from '../../src/plan/diff.js';
import { SENSITIVE_PLACEHOLDER } from '../../src/plan/types.js';

const key = fc.string({ minLength: 1, maxLength: 8 }).filter((k) => k !== '__proto__');
const fieldMap = fc.dictionary(key, fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<JsonValue>, { maxKeys: 6 });

describe('diffFields', () => {
  it('diff(x, x) is empty', () => {
    fc.assert(
      fc.property(fieldMap, (x) => {
        expect(diffFields(x, structuredClone(x))).toEqual([]);
      }),
    );
  });

  it('is symmetric in the paths it names, with before/after swapped', () => {
    fc.assert(
      fc.property(fieldMap, fieldMap, (a, b) => {
        const ab = diffFields(a, b);
        const ba = diffFields(b, a);
        expect(ab.map((f) => f.path)).toEqual(ba.map((f) => f.path));
        expect(ab.map((f) => canonicalJson(f.before))).toEqual(ba.map((f) => canonicalJson(f.after)));
      }),
    );
  });

  it('finds a change whenever the maps differ (absent = null at the top level)', () => {
    const dropNulls = (m: Record<string, JsonValue>) => Object.fromEntries(Object.entries(m).filter(([, v]) => v !== null));
    fc.assert(
      fc.property(fieldMap, fieldMap, (a, b) => {
        if (diffFields(a, b).length === 0) {
          // Only nested null-vs-absent may hide (absent = null at every level): compare top-level values.
          for (const k of Object.keys(dropNulls(a))) {
            const av = a[k] ?? null;
            const bv = b[k] ?? null;
            if (typeof av !== 'object' || Array.isArray(av)) expect(canonicalJson(bv)).toBe(canonicalJson(av));
          }
        }
      }),
    );
  });

  it('is empty exactly when the maps are equal, keys only in b and nested maps included (absent = null = empty map)', () => {
    const norm = (v: JsonValue): JsonValue => {
      if (Array.isArray(v)) return v.map(norm);
      if (v === null || typeof v !== 'object') return v;
      // Absent, null and an empty map are the same in a map (a map that appears empty is no field).
      const isEmptyMap = (x: JsonValue) => x !== null && typeof x === 'object' && !Array.isArray(x) && Object.keys(x).length === 0;
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, norm(x)] as const).filter(([, x]) => x !== null && !isEmptyMap(x)));
    };
    // Nested maps on both sides, so changes deep inside them and keys only in `b` come up often.
    const nested = fc.dictionary(key, fc.oneof(fc.jsonValue({ maxDepth: 1 }), fc.dictionary(key, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 })) as fc.Arbitrary<JsonValue>, { maxKeys: 5 });
    fc.assert(
      fc.property(nested, nested, (a, b) => {
        const equal = canonicalJson(norm(a)) === canonicalJson(norm(b));
        expect(diffFields(a, b).length === 0).toBe(equal);
      }),
      { numRuns: 500 },
    );
    // A key only in `b`, deep inside a map: named with its full path.
    expect(diffFields({ m: { x: 1 } }, { m: { x: 1, y: { z: 2 } } }).map((f) => f.path)).toEqual(['m.y']);
  });

  it('treats absent and null as the same, ignores key order, sorts paths', () => {
    expect(diffFields({ a: null, b: { y: 1, x: 2 } }, { b: { x: 2, y: 1 } })).toEqual([]);
    expect(diffFields({ z: 1, a: 'x' }, { z: 2, a: 'y' }).map((f) => f.path)).toEqual(['a', 'z']);
  });

  it('descends into nested maps and quotes odd keys', () => {
    const d = diffFields(
      { claimMappings: { email: 'email', 'https://x/groups': 'g' } },
      { claimMappings: { mail: 'email', 'https://x/groups': 'groups' } },
    );
    expect(d).toEqual([
      { path: 'claimMappings.email', before: 'email', after: null, sensitive: false },
      { path: 'claimMappings.mail', before: null, after: 'email', sensitive: false },
      { path: 'claimMappings["https://x/groups"]', before: 'g', after: 'groups', sensitive: false },
    ]);
  });

  // Regression: a workspace create showed `variables: {"terraform":{…},"env":{}}` as one JSON blob.
  it('a map of records that appears or disappears whole is listed one record per field; an empty map is no field', () => {
    const variables = {
      terraform: { region: { value: 'eu-west-1', hcl: false }, db: { hcl: false, sensitive: true } },
      env: {},
    };
    const created = diffFields({}, { variables, variableOptions: {}, claimMappings: { a: 'b' } });
    expect(created).toEqual([
      { path: 'claimMappings', before: null, after: { a: 'b' }, sensitive: false },
      { path: 'variables.terraform.db', before: null, after: { hcl: false, sensitive: true }, sensitive: false },
      { path: 'variables.terraform.region', before: null, after: { value: 'eu-west-1', hcl: false }, sensitive: false },
    ]);
    // A delete names the same paths, before and after swapped.
    expect(diffFields({ variables }, {}).map((f) => [f.path, f.after])).toEqual([
      ['variables.terraform.db', null],
      ['variables.terraform.region', null],
    ]);
    // Both sides present: only the record's fields that moved.
    const moved = structuredClone(variables);
    moved.terraform.region.value = 'us-east-1';
    expect(diffFields({ variables }, { variables: moved })).toEqual([
      { path: 'variables.terraform.region.value', before: 'eu-west-1', after: 'us-east-1', sensitive: false },
    ]);
  });

  it('compares arrays as whole values (providers sort set-like lists)', () => {
    expect(diffFields({ l: [1, 2] }, { l: [2, 1] })).toEqual([{ path: 'l', before: [1, 2], after: [2, 1], sensitive: false }]);
  });
});

describe('diffSecrets', () => {
  it('never carries a value, only the placeholder', () => {
    const d = diffSecrets({ s: 'sha256:new', n: 'sha256:n' }, { s: 'sha256:old', gone: 'sha256:g' });
    expect(d.fields).toEqual([
      { path: 'gone', before: SENSITIVE_PLACEHOLDER, after: null, sensitive: true },
      { path: 'n', before: null, after: SENSITIVE_PLACEHOLDER, sensitive: true },
      { path: 's', before: SENSITIVE_PLACEHOLDER, after: SENSITIVE_PLACEHOLDER, sensitive: true },
    ]);
    expect(JSON.stringify(d)).not.toContain('sha256');
  });

  it('equal digests are no change; no record means every secret is written', () => {
    expect(diffSecrets({ s: 'sha256:a' }, { s: 'sha256:a' }).fields).toEqual([]);
    const adopted = diffSecrets({ s: 'sha256:a' }, undefined);
    expect(adopted.unknown).toEqual(['s']);
    expect(adopted.fields).toHaveLength(1);
  });
});
