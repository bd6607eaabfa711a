import type { PlanSummary } from '../plan/types.js';

export const NO_CHANGES = 'No changes. Live state matches the manifests.';

export function summaryLine(s: PlanSummary): string {
  if (s.create + s.update + s.delete + s.upgrade === 0) return NO_CHANGES;
  return `Plan: ${s.create} to create, ${s.update} to update, ${s.delete} to delete, ${s.upgrade} to upgrade.`;
}
