import { addressKey, type Address } from '../model/kinds.js';
import type { ObjectView } from '../providers/provider.js';
import type { OutOfScopeObject, PlanNotice } from '../plan/types.js';
import { dependenciesOf } from './dependencies.js';
import type { ManifestFiles } from './types.js';

/*
 * Which objects a plan is about. Two narrowings, both said in the plan as notices:
 * - paths: an owned object with no document among the given paths whose recorded manifest file still
 *   exists is out of scope: it was not given, not removed (decisions.md §16);
 * - `--target`: the targets plus what they depend on, as Terraform does (decisions.md §19).
 */

/** Owned objects without a document here whose recorded file was not read but still exists. */
export function outOfScope(views: Iterable<ObjectView>, files: ManifestFiles | undefined): OutOfScopeObject[] {
  if (!files) return [];
  const read = new Set(files.read);
  const existing = new Set(files.existing);
  const out: OutOfScopeObject[] = [];
  for (const v of views) {
    const source = v.record?.source;
    if (v.desired || source === undefined || read.has(source) || !existing.has(source)) continue;
    out.push({ kind: v.kind, name: v.name, source });
  }
  return out;
}

export function outOfScopeNotice(objects: OutOfScopeObject[]): PlanNotice[] {
  return objects.length === 0 ? [] : [{ code: 'out-of-scope', objects }];
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
