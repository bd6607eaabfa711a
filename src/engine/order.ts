import { kindOrder } from '../kinds/registry.js';
import type { Action } from '../model/action.js';
import type { PlannedChange } from '../providers/provider.js';

/*
 * Apply order: deletes first, dependents before dependencies (reverse KINDS order), then writes
 * (create/update/upgrade) dependencies first (KINDS order), each by name; no-ops last. The sort is
 * stable, so when refine splits one address into delete + create their order is kept.
 */

function phaseRank(action: Action): number {
  if (action === 'delete') return 0;
  if (action === 'no-op') return 2;
  return 1;
}

export function compareApplyOrder(a: PlannedChange, b: PlannedChange): number {
  const pa = phaseRank(a.change.action);
  const pb = phaseRank(b.change.action);
  if (pa !== pb) return pa - pb;
  const ka = kindOrder(a.change.kind);
  const kb = kindOrder(b.change.kind);
  if (ka !== kb) return pa === 0 ? kb - ka : ka - kb;
  return a.change.name < b.change.name ? -1 : a.change.name > b.change.name ? 1 : 0;
}

export function sortForApply(planned: PlannedChange[]): PlannedChange[] {
  return [...planned].sort(compareApplyOrder);
}
