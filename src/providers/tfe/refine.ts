import { addressKey } from '../../model/kinds.js';
import type { JsonValue } from '../../model/json.js';
import { canonicalJson } from '../../plan/canonical.js';
import type { Change } from '../../plan/types.js';
import { rewriteReason, updateReason } from '../../plan/reasons.js';
import type { ObjectView, RefineContext } from '../provider.js';
import { isDeletionPolicy, type DeletionPolicy } from './mapping.js';

/*
 * refine(): pure. Turns a workspace's generic change into what HCP Terraform needs:
 * - a module version change → action `upgrade` with `upgrade: {from, to}` (reference tfc-api.md
 *   §3: a workspace moves to new no-code settings only through an upgrade run; setting and
 *   variable changes stay in `fields` and are applied first);
 * - a module whose variable options change, or a workspace the service flags with
 *   `no-code-upgrade-available`, also upgrades (same version);
 * - a delete carries its deletion policy and says what will happen;
 * - a run an earlier apply left in flight makes an otherwise unchanged workspace an update that
 *   resumes following it.
 */

export function deletionPolicyOf(view: ObjectView): DeletionPolicy {
  const recorded = view.record?.applied.deletion;
  return isDeletionPolicy(recorded) ? recorded : 'safe';
}

const DELETION_REASON: Record<DeletionPolicy, string> = {
  safe: 'removed from the manifests: deletion safe — the workspace is safe-deleted, which HCP Terraform refuses while it still manages resources',
  destroy: 'removed from the manifests: deletion destroy — a destroy run removes its resources, then the workspace is safe-deleted',
  orphan: 'removed from the manifests: deletion orphan — converge forgets it; the workspace and its resources stay',
};

function str(v: JsonValue | undefined): string | null {
  return typeof v === 'string' ? v : null;
}

function moduleOptionsChange(view: ObjectView, all: ReadonlyMap<string, ObjectView>): boolean {
  const module = str(view.desired?.fields.module);
  if (module === null) return false;
  const m = all.get(addressKey({ kind: 'NoCodeModule', name: module }));
  if (!m?.desired || !m.live) return false;
  return canonicalJson(m.desired.fields.variableOptions ?? null) !== canonicalJson(m.live.fields.variableOptions ?? null);
}

/**
 * The update's reason without `moduleVersion`: the upgrade's own reason names both versions, so a
 * reviewer reads the move once (the field list still shows it).
 */
function reasonBesidesVersion(view: ObjectView, change: Change, how: RefineContext): string {
  if (change.action !== 'update' || !view.desired) return '';
  const rest = updateReason({
    recordedProtect: view.record?.protect,
    desiredProtect: view.desired.object.protect,
    fields: change.fields.filter((f) => f.path !== 'moduleVersion'),
  });
  return how.rewrite ? rewriteReason(rest || undefined) : rest;
}

export function refineTfe(view: ObjectView, change: Change, all: ReadonlyMap<string, ObjectView>, how: RefineContext = { rewrite: false }): Change[] {
  if (view.kind !== 'NoCodeWorkspace') return [change];
  if (change.action === 'delete') {
    const deletion = deletionPolicyOf(view);
    return [{ ...change, deletion, reason: DELETION_REASON[deletion] }];
  }
  const { desired, live, record } = view;
  if (!desired || !live || (change.action !== 'update' && change.action !== 'no-op')) return [change];

  const from = str(live.fields.moduleVersion);
  const to = str(desired.fields.moduleVersion);
  const reasons: string[] = [];
  if (to !== null && from !== to) reasons.push(`module ${str(desired.fields.module) ?? ''} moves from ${from ?? 'an unknown version'} to ${to}`);
  else if (moduleOptionsChange(view, all)) reasons.push('the module’s variable options change: the workspace takes them through an upgrade');
  else if (live.extra.upgradeAvailable === true) reasons.push('HCP Terraform reports a no-code upgrade is available');

  const inFlight = record?.inFlight;
  // An adopted workspace whose first run is still in flight (load.ts, issue 16.5): apply follows that run.
  const firstRun = record === undefined ? str(live.extra.pendingFirstRun) : null;
  const firstRunText = firstRun !== null ? `its first run ${firstRun} is in flight (${str(live.extra.pendingFirstRunStatus) ?? 'unknown'}) and not in state: apply follows it and confirms it per upgrade.confirm` : '';
  if (reasons.length > 0) {
    const rest = reasonBesidesVersion(view, change, how);
    const other = rest ? `; ${rest}` : '';
    const notes = [...change.notes];
    if (inFlight?.purpose === 'upgrade') notes.push(`resumes upgrade run ${inFlight.runId} (last seen ${inFlight.phase}) instead of starting another`);
    if (firstRun !== null) notes.push(`${firstRunText}, then upgrades`);
    return [{ ...change, action: 'upgrade', upgrade: { from, to: to ?? from }, reason: `${reasons.join('; ')}${other}`, notes }];
  }
  if (firstRun !== null && change.action === 'no-op') return [{ ...change, action: 'update', reason: firstRunText }];
  if (firstRun !== null && change.action === 'update') return [{ ...change, reason: `${change.reason ? `${change.reason}; ` : ''}${firstRunText}` }];
  if (inFlight && change.action === 'no-op') {
    return [{ ...change, action: 'update', reason: `resume following ${inFlight.purpose} run ${inFlight.runId} started by an earlier apply (last seen ${inFlight.phase})` }];
  }
  return [change];
}
