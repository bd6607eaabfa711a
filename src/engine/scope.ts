import { addressKey, type Address } from '../model/kinds.js';
import type { ObjectView } from '../providers/provider.js';
import type { OutOfScopeObject, PlanNotice } from '../plan/types.js';
import { dependenciesOf } from './dependencies.js';
import type { ManifestFiles } from './types.js';

/*
 * Which objects a plan is about. Two narrowings, both said in the plan as notices:
 * - paths: an owned object with no document among the given paths whose recorded manifest file still
 *   exists is out of scope: it was not given, not removed (decisions.md §16); so is one whose recorded
 *   path cannot be resolved (a path an older release wrote relative to a working directory that is not
 *   known, decisions.md §27): converge never plans a delete because it cannot find a file;
 * - `--target`: the targets plus what they depend on, as Terraform does (decisions.md §19).
 */

export interface OutOfScope {
  /** Recorded file exists but was not read. */
  notGiven: OutOfScopeObject[];
  /** Recorded file cannot be resolved from the state root. */
  unresolved: OutOfScopeObject[];
}

/** Owned objects without a document here whose recorded file was not read but still exists, or cannot be resolved. */
export function outOfScope(views: Iterable<ObjectView>, files: ManifestFiles | undefined): OutOfScope {
  const found: OutOfScope = { notGiven: [], unresolved: [] };
  if (!files) return found;
  const read = new Set(files.read);
  const existing = new Set(files.existing);
  for (const v of views) {
    const recorded = v.record?.source;
    if (v.desired || recorded === undefined) continue;
    const source = v.record?.rootRelative === true ? recorded : files.legacy?.get(recorded);
    if (source === undefined) found.unresolved.push({ kind: v.kind, name: v.name, source: recorded });
    else if (!read.has(source) && existing.has(source)) found.notGiven.push({ kind: v.kind, name: v.name, source });
  }
  return found;
}

export function outOfScopeNotice(objects: OutOfScope): PlanNotice[] {
  return [
    ...(objects.notGiven.length === 0 ? [] : [{ code: 'out-of-scope' as const, objects: objects.notGiven }]),
    ...(objects.unresolved.length === 0 ? [] : [{ code: 'source-unresolved' as const, objects: objects.unresolved }]),
  ];
}

/**
 * The targets and, transitively, what they depend on (a binding rule its auth method and the role or
 * policy it binds, a role its policies, a workspace its module), each added one said as a notice. Only what a view exists for is added: a dependency
 * nobody knows of is the provider's diagnostic to give.
 */
export function expandTargets(targets: readonly Address[], views: ReadonlyMap<string, ObjectView>): { keys: Set<string>; notices: PlanNotice[] } {
  const keys = new Set(targets.map(addressKey));
  const notices: PlanNotice[] = [];
  const queue = [...targets];
  for (let t = queue.shift(); t !== undefined; t = queue.shift()) {
    const view = views.get(addressKey(t));
    for (const dep of view ? dependenciesOf(view) : []) {
      if (keys.has(addressKey(dep)) || !views.has(addressKey(dep))) continue;
      keys.add(addressKey(dep));
      notices.push({ code: 'target-dependency', target: { kind: t.kind, name: t.name }, dependency: { kind: dep.kind, name: dep.name } });
      queue.push(dep);
    }
  }
  return { keys, notices };
}

/**
 * A destroy plan's scope with `--target`: the targets and, transitively, every object that depends on them
 * (a binding rule on its auth method, role or policy; a role on its policies; a workspace on its module), as
 * Terraform's `destroy -target` does: deleting a target while its dependents stay would break them. Each added
 * one is said as a notice.
 */
export function expandDependents(targets: readonly Address[], views: ReadonlyMap<string, ObjectView>): { keys: Set<string>; notices: PlanNotice[] } {
  const dependents = new Map<string, ObjectView[]>();
  for (const v of views.values()) {
    for (const dep of dependenciesOf(v)) {
      const key = addressKey(dep);
      dependents.set(key, [...(dependents.get(key) ?? []), v]);
    }
  }
  const keys = new Set(targets.map(addressKey));
  const notices: PlanNotice[] = [];
  const queue = [...targets];
  for (let t = queue.shift(); t !== undefined; t = queue.shift()) {
    for (const user of dependents.get(addressKey(t)) ?? []) {
      if (keys.has(addressKey(user))) continue;
      keys.add(addressKey(user));
      notices.push({ code: 'target-dependent', target: { kind: t.kind, name: t.name }, dependent: { kind: user.kind, name: user.name } });
      queue.push(user);
    }
  }
  return { keys, notices };
}

/** The desired set emptied (a destroy plan): every view keeps only its live object and its record. */
export function withoutDesired(views: Map<string, ObjectView>): void {
  for (const [key, view] of views) {
    if (view.desired === undefined) continue;
    const { desired: _desired, ...rest } = view;
    views.set(key, rest);
  }
}
