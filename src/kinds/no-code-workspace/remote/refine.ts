import { addressKey } from '../../../model/kinds.js';
import type { JsonValue } from '../../../model/json.js';
import { canonicalJson } from '../../../plan/canonical.js';
import { mergeFieldChanges } from '../../../plan/diff.js';
import { SENSITIVE_PLACEHOLDER, type Change } from '../../../plan/types.js';
import type { Note, Reason } from '../../../plan/codes.js';
import { rewriteReasons, updateReasons } from '../../../plan/reasons.js';
import type { ObjectView, RefineContext } from '../../../providers/provider.js';
import { compareVersions } from '../../../providers/tfe/mapping.js';
import { isDeletionPolicy, isSecretVariable, varCategory, varId, varValuePath, type DeletionPolicy } from './mapping.js';
import type { DesiredObject } from '../../../model/desired.js';

/*
 * refine(): pure. Turns a workspace's generic change into what HCP Terraform needs:
 * - a module version change → action `upgrade` with `upgrade: {from, to}` (docs/reference/hcp-terraform-api.md
 *   §3: a workspace moves to new no-code settings only through an upgrade run; setting and
 *   variable changes stay in `fields` and are applied first);
 * - a module whose variable options change, or a workspace the service flags with
 *   `no-code-upgrade-available`, also upgrades (same version);
 * - a delete carries its deletion policy and says what will happen;
 * - a run an earlier apply left in flight makes an otherwise unchanged workspace an update that
 *   resumes following it;
 * - an update or upgrade of a workspace whose secret variables were rewritten outside converge (hidden
 *   drift) sends those secrets again, the manifest's values (decisions.md: "An update of a workspace
 *   sends its secrets rewritten outside converge again").
 */

export function deletionPolicyOf(view: ObjectView): DeletionPolicy {
  const recorded = view.record?.applied.deletion;
  return isDeletionPolicy(recorded) ? recorded : 'safe';
}

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
 * The update's reasons without `moduleVersion`: the upgrade's own reason names both versions, so a
 * reviewer reads the move once (the field list still shows it).
 */
function reasonsBesidesVersion(view: ObjectView, change: Change, how: RefineContext): Reason[] {
  if (change.action !== 'update' || !view.desired) return [];
  const rest = updateReasons({
    recordedProtect: view.record?.protect,
    desiredProtect: view.desired.object.protect,
    fields: change.fields.filter((f) => f.path !== 'moduleVersion'),
  });
  return how.rewrite ? rewriteReasons(rest) : rest;
}

/** A workspace's change as HCP Terraform needs it (above). */
export function refineWorkspaceChange(view: ObjectView, change: Change, all: ReadonlyMap<string, ObjectView>, how: RefineContext = { rewrite: false }): Change[] {
  return refineWorkspace(view, change, all, how).map((c) => resendMovedSecrets(view, c));
}

/**
 * An update records the secret version ids the workspace has afterwards (variables.ts), so
 * one that left a secret rewritten outside converge alone would record the foreign value as converged
 * and the hidden drift would vanish with the secret still live. The update sends the manifest's value
 * of each moved secret instead: its field is listed (so the intent sends it) and a note says why.
 */
function resendMovedSecrets(view: ObjectView, change: Change): Change {
  const hidden = view.live?.hiddenChange;
  if ((change.action !== 'update' && change.action !== 'upgrade') || hidden?.code !== 'secret-versions-moved') return change;
  const d = view.desired?.object as DesiredObject<'NoCodeWorkspace'> | undefined;
  const moved = new Set(hidden.paths);
  const paths = (d?.spec.variables ?? [])
    .filter((v) => isSecretVariable(v) && moved.has(varId(varCategory(v), v.key)))
    .map((v) => varValuePath(varCategory(v), v.key))
    .filter((path) => !change.fields.some((f) => f.path === path));
  if (paths.length === 0) return change;
  const added = paths.map((path) => ({ path, before: SENSITIVE_PLACEHOLDER, after: SENSITIVE_PLACEHOLDER, sensitive: true }));
  return { ...change, fields: mergeFieldChanges(change.fields, added), notes: [...change.notes, { code: 'secret-resent', paths }] };
}

function refineWorkspace(view: ObjectView, change: Change, all: ReadonlyMap<string, ObjectView>, how: RefineContext): Change[] {
  if (change.action === 'delete') {
    const deletion = how.deletion ?? deletionPolicyOf(view);
    // A safe-delete of a workspace that still manages resources is refused (409, docs/reference/hcp-terraform-api.md §5):
    // its resource count is read with it, so the plan says so instead of apply failing.
    const resources = view.live?.extra.resourceCount;
    const refused: Note[] = deletion === 'safe' && typeof resources === 'number' && resources > 0 ? [{ code: 'safe-delete-refused', resources }] : [];
    return [{ ...change, deletion, reasons: [{ code: 'deletion-policy', policy: deletion }], notes: [...change.notes, ...refused] }];
  }
  const { desired, live, record } = view;
  if (!desired || !live || (change.action !== 'update' && change.action !== 'no-op')) return [change];

  const from = str(live.fields.moduleVersion);
  const to = str(desired.fields.moduleVersion);
  const reasons: Reason[] = [];
  if (to !== null && from !== to) reasons.push({ code: 'module-version', module: str(desired.fields.module) ?? '', from, to });
  else if (moduleOptionsChange(view, all)) reasons.push({ code: 'module-options' });
  else if (live.extra.upgradeAvailable === true) reasons.push({ code: 'upgrade-available' });

  const inFlight = record?.inFlight;
  // An adopted workspace whose first run is still in flight (load.ts): apply follows that run.
  const firstRun = record === undefined ? str(live.extra.pendingFirstRun) : null;
  const firstRunStatus = str(live.extra.pendingFirstRunStatus);
  if (reasons.length > 0) {
    const notes: Note[] = [...change.notes];
    if (inFlight?.purpose === 'upgrade') notes.push({ code: 'resumes-upgrade-run', runId: inFlight.runId, phase: inFlight.phase });
    if (firstRun !== null) notes.push({ code: 'first-run-then-upgrade', runId: firstRun, status: firstRunStatus });
    // Nothing in HCP Terraform refuses an older pin: say so before a rollout takes every workspace back.
    if (from !== null && to !== null && compareVersions(to, from) < 0) notes.push({ code: 'module-downgrade', from, to });
    return [{ ...change, action: 'upgrade', upgrade: { from, to: to ?? from }, reasons: [...reasons, ...reasonsBesidesVersion(view, change, how)], notes }];
  }
  // A run an earlier apply started has applied since (load.ts): nothing to follow, the record takes its result.
  if (change.action === 'no-op' && view.notes?.some((n) => n.code === 'run-applied-since')) return [{ ...change, refresh: 'run' }];
  if (firstRun !== null && (change.action === 'no-op' || change.action === 'update')) {
    const before = change.action === 'update' ? (change.reasons ?? []) : [];
    return [{ ...change, action: 'update', reasons: [...before, { code: 'first-run-in-flight', runId: firstRun, status: firstRunStatus }] }];
  }
  if (inFlight && change.action === 'no-op') {
    return [{ ...change, action: 'update', reasons: [{ code: 'resume-run', purpose: inFlight.purpose, runId: inFlight.runId, phase: inFlight.phase }] }];
  }
  return [change];
}
