import { ConvergeError } from '../diagnostics/errors.js';
import type { Change, Plan } from '../plan/types.js';
import { isAdoption, isRefresh, PLAN_FORMAT_VERSION } from '../plan/types.js';
import type { Note, Reason } from '../plan/codes.js';
import { noteLines, reasonLine } from './change-sentences.js';
import { driftItemFromJson, jsonDriftItem } from './drift-sentences.js';

/*
 * `plan --json`: a report for machines. Exactly
 *   { formatVersion, changes: [{ kind, name, action, fields: [{path, before, after, sensitive}],
 *     id?, reason?, reasons?, notes?, noteCodes?, upgrade?, deletion?, adopt?, refresh?, movedFrom?, origin? }], summary, drift,
 *     diagnostics, notices?, environment?, state?, loginTests? }.
 * `reason` and `notes` are the sentences the text view prints (format 1.0 readers rely on them);
 * `reasons` and `noteCodes` (additive) are the same facts as codes with data (docs/codes.md), in
 * the same order, for machines: never parse the sentences.
 * Decision: no-op changes are left out of `changes` (they are not actions; the summary never counts
 * them), except adoptions, which carry `adopt: true` (decisions.md §9: nothing is sent, but apply
 * records them as owned, so a reader must see them) and refreshes, which carry `refresh: "live" | "gone" | "source"` (apply
 * rewrites their state records, decisions.md §18); `notes` is omitted when empty; `notices` (plan-wide
 * facts as codes and addresses) is omitted when empty. Everything the
 * text view shows is here, so
 * `renderPlanText(parsePlanJson(renderPlanJson(p)))` equals `renderPlanText(p)`.
 * A saved plan (`plan --out`, plan/serialize.ts) is a different, complete document.
 */

interface JsonChange {
  kind: Change['kind'];
  name: string;
  action: Change['action'];
  id?: string;
  reason?: string;
  reasons?: Reason[];
  fields: Change['fields'];
  notes?: string[];
  noteCodes?: Note[];
  upgrade?: Change['upgrade'];
  deletion?: Change['deletion'];
  adopt?: true;
  refresh?: Change['refresh'];
  /** A Moved document's rename: the old name (same kind). */
  movedFrom?: string;
  origin?: Change['origin'];
}

function jsonChange(c: Change): JsonChange {
  const reason = reasonLine(c);
  return {
    kind: c.kind,
    name: c.name,
    action: c.action,
    ...(c.id !== undefined ? { id: c.id } : {}),
    ...(reason !== undefined ? { reason, reasons: c.reasons ?? [] } : {}),
    fields: c.fields.map((f) => ({ path: f.path, before: f.before, after: f.after, sensitive: f.sensitive })),
    ...(c.notes.length > 0 ? { notes: noteLines(c), noteCodes: c.notes } : {}),
    ...(c.upgrade !== undefined ? { upgrade: c.upgrade } : {}),
    ...(c.deletion !== undefined ? { deletion: c.deletion } : {}),
    ...(isAdoption(c) ? { adopt: true as const } : {}),
    ...(isRefresh(c) ? { refresh: c.refresh } : {}),
    ...(c.movedFrom !== undefined ? { movedFrom: c.movedFrom } : {}),
    ...(c.origin !== undefined ? { origin: c.origin } : {}),
  };
}

export function planJsonObject(plan: Plan): Record<string, unknown> {
  return {
    formatVersion: plan.formatVersion,
    changes: plan.changes.filter((c) => c.action !== 'no-op' || isAdoption(c) || isRefresh(c)).map(jsonChange),
    summary: { create: plan.summary.create, update: plan.summary.update, delete: plan.summary.delete, upgrade: plan.summary.upgrade },
    drift: plan.drift.map(jsonDriftItem),
    diagnostics: plan.diagnostics,
    ...(plan.notices !== undefined && plan.notices.length > 0 ? { notices: plan.notices } : {}),
    ...(plan.environment !== undefined ? { environment: plan.environment } : {}),
    ...(plan.state !== undefined ? { state: plan.state } : {}),
    ...(plan.loginTests !== undefined ? { loginTests: plan.loginTests } : {}),
  };
}

export function renderPlanJson(plan: Plan): string {
  return JSON.stringify(planJsonObject(plan), null, 2);
}

/** A change of `plan --json` output; one written by an older converge has only the sentences, kept as written. */
function changeFromJson(c: JsonChange): Change {
  const { reason, reasons, notes, noteCodes, ...rest } = c;
  const structuredReasons: Reason[] | undefined = reasons ?? (reason !== undefined ? [{ code: 'legacy-text', text: reason }] : undefined);
  return {
    ...rest,
    ...(structuredReasons !== undefined ? { reasons: structuredReasons } : {}),
    notes: noteCodes ?? (notes ?? []).map((text): Note => ({ code: 'legacy-text', text })),
  };
}

/** Reads `plan --json` output back into a Plan (no `createdAt` there: it is left empty). */
export function parsePlanJson(text: string): Plan {
  const data = JSON.parse(text) as Partial<Plan> & { changes?: JsonChange[] };
  if (data.formatVersion !== PLAN_FORMAT_VERSION || !Array.isArray(data.changes) || data.summary === undefined) {
    throw new ConvergeError('plan.invalid', 'not a converge plan report (plan --json)', { source: 'user' });
  }
  return {
    formatVersion: PLAN_FORMAT_VERSION,
    createdAt: '',
    changes: data.changes.map(changeFromJson),
    drift: (data.drift ?? []).map(driftItemFromJson),
    diagnostics: data.diagnostics ?? [],
    summary: data.summary,
    ...(data.notices !== undefined ? { notices: data.notices } : {}),
    ...(data.environment !== undefined ? { environment: data.environment } : {}),
    ...(data.state !== undefined ? { state: data.state } : {}),
    ...(data.loginTests !== undefined ? { loginTests: data.loginTests } : {}),
  };
}
