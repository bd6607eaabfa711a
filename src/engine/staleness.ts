import { addressKey } from '../model/kinds.js';
import type { JsonValue } from '../model/json.js';
import { kindOrder, parseAddress } from '../kinds/registry.js';
import { canonicalJson } from '../plan/canonical.js';
import { diffFields } from '../plan/diff.js';
import { isAdoption, type Change, type ReadFingerprint, type SavedPlan } from '../plan/types.js';
import { fingerprint } from './fingerprint.js';
import type { PlanRun, StaleFinding } from './types.js';

function show(v: unknown): string {
  return v === null ? '(absent)' : JSON.stringify(v);
}

/**
 * What must match for "the same change": action and field values, upgrade/deletion details, and what
 * apply will send (the intent: request bodies, variable ids, resolved ids). A plan saved before
 * changes carried intents (`withIntent` false) is compared without them.
 */
function changeKey(c: Change, withIntent: boolean): string {
  return canonicalJson({
    action: c.action,
    adopt: isAdoption(c),
    fields: c.fields.map((f) => ({ path: f.path, before: f.before, after: f.after, sensitive: f.sensitive })),
    upgrade: c.upgrade ?? null,
    deletion: c.deletion ?? null,
    // An intent is plain JSON by contract (plan/intent.ts); its interfaces just lack an index signature.
    ...(withIntent ? { intent: (c.intent ?? null) as unknown as JsonValue } : {}),
  });
}

function changesByAddress(changes: readonly Change[]): Map<string, Change[]> {
  const m = new Map<string, Change[]>();
  for (const c of changes) {
    // An adoption is a no-op that apply still acts on (it records ownership): it must match too.
    if (c.action === 'no-op' && !isAdoption(c)) continue;
    const k = addressKey(c);
    m.set(k, [...(m.get(k) ?? []), c]);
  }
  return m;
}

/**
 * Why a saved plan may no longer be applied (decisions.md §4): an object read at plan time changed
 * (named with the field), appeared or disappeared; a secret's digest changed; or the changes
 * re-derived now differ from the saved ones. Empty when the saved plan is still exactly right.
 */
export function findStaleness(saved: SavedPlan, fresh: PlanRun): StaleFinding[] {
  const findings: StaleFinding[] = [];
  const named = new Set<string>();
  const freshReads = new Map<string, ReadFingerprint>(fresh.reads.map((r) => [addressKey(r), r]));

  for (const before of saved.saved.reads) {
    const key = addressKey(before);
    const view = fresh.views.get(key);
    const after = freshReads.get(key) ?? (view ? fingerprint(view) : { ...before, digest: null, fields: {} });
    if (before.digest === after.digest) continue;
    named.add(key);
    if (before.digest === null) {
      findings.push({ kind: before.kind, name: before.name, message: 'appeared since the plan was made (created outside converge?)' });
    } else if (after.digest === null) {
      findings.push({ kind: before.kind, name: before.name, message: 'disappeared since the plan was made (deleted outside converge?)' });
    } else {
      const moved = diffFields(before.fields, after.fields);
      if (moved.length === 0) {
        findings.push({ kind: before.kind, name: before.name, message: 'was replaced since the plan was made (its remote id changed)' });
      }
      for (const f of moved) {
        findings.push({ kind: before.kind, name: before.name, field: f.path, message: `changed since the plan was made: ${show(f.before)} → ${show(f.after)}` });
      }
    }
  }
  const savedKeys = new Set(saved.saved.reads.map(addressKey));
  for (const r of fresh.reads) {
    const key = addressKey(r);
    if (savedKeys.has(key) || r.digest === null) continue;
    named.add(key);
    findings.push({ kind: r.kind, name: r.name, message: 'appeared since the plan was made' });
  }

  // Digests are salted per state: comparable only under the same salt. A plan made before the state
  // existed (serial 0) has no records, so every secret it plans is written whatever its value.
  const savedState = saved.saved.state;
  const sameSalt = savedState === undefined || savedState.salt === fresh.state.salt;
  const skipSecrets = !sameSalt && savedState?.serial === 0;
  const secretKeys = new Set([...Object.keys(saved.saved.secretDigests), ...Object.keys(fresh.secretDigests)]);
  if (!skipSecrets) {
    for (const k of [...secretKeys].sort()) {
      const hash = k.lastIndexOf('#');
      const address = parseAddress(hash > 0 ? k.slice(0, hash) : k);
      if (!address) continue;
      const field = hash > 0 ? k.slice(hash + 1) : undefined;
      const a = saved.saved.secretDigests[k];
      const b = fresh.secretDigests[k];
      if (sameSalt && a === b) continue;
      named.add(addressKey(address));
      const message = !sameSalt
        ? 'cannot check the secret is unchanged: the state was replaced since the plan was made'
        : a === undefined
          ? 'secret added since the plan was made'
          : b === undefined
            ? 'secret removed since the plan was made'
            : 'secret value changed since the plan was made';
      findings.push({ ...address, ...(field !== undefined ? { field } : {}), message });
    }
  }

  const before = changesByAddress(saved.changes);
  const after = changesByAddress(fresh.plan.changes);
  for (const key of [...new Set([...before.keys(), ...after.keys()])].sort()) {
    if (named.has(key)) continue;
    const a = before.get(key) ?? [];
    const b = after.get(key) ?? [];
    const withIntent = a.some((c) => c.intent !== undefined);
    const keyOf = (c: Change) => changeKey(c, withIntent);
    if (canonicalJson(a.map(keyOf)) === canonicalJson(b.map(keyOf))) continue;
    const address = parseAddress(key);
    if (!address) continue;
    const actions = (cs: Change[]) => (cs.length === 0 ? 'nothing' : cs.map((c) => (isAdoption(c) ? 'adopt (record as owned)' : c.action)).join(' + '));
    if (actions(a) !== actions(b)) {
      findings.push({ ...address, message: `the change differs from the saved plan: saved ${actions(a)}, now ${actions(b)}` });
      continue;
    }
    const fieldsOf = (cs: Change[]) => new Map(cs.flatMap((c) => c.fields.map((f) => [f.path, canonicalJson([f.before, f.after])] as const)));
    const fa = fieldsOf(a);
    const fb = fieldsOf(b);
    const moved = [...new Set([...fa.keys(), ...fb.keys()])].filter((p) => fa.get(p) !== fb.get(p)).sort();
    if (moved.length === 0) findings.push({ ...address, message: `the planned ${actions(b)} differs from the saved plan (what it would send, e.g. a remote id, moved)` });
    for (const field of moved) findings.push({ ...address, field, message: `the planned ${actions(b)} of this field differs from the saved plan` });
  }
  // Grouped by object (kind order, then name); within one object, in the order found.
  return findings
    .map((f, i) => ({ f, i }))
    .sort((a, b) => kindOrder(a.f.kind) - kindOrder(b.f.kind) || (a.f.name < b.f.name ? -1 : a.f.name > b.f.name ? 1 : 0) || a.i - b.i)
    .map(({ f }) => f);
}
