import { assertNever } from '../model/action.js';
import { hasChanges, type DriftCause, type DriftItem, type Plan } from '../plan/types.js';
import { diffFieldLines, formatFieldLine, painter, plural, presentFields, type Paint } from './format.js';
import { heredocDiffLines, heredocLines, shownFields } from './multiline-diff.js';
import { DEFAULT_MARKDOWN_MAX, fitSections, htmlEscape, mdCode, mdEscape, mdFence } from './markdown.js';
import { environmentHeading, environmentLine } from './plan-notices.js';
import { driftSentence, jsonDriftItem, type JsonDriftItem } from './drift-sentences.js';

const BANNER_NAMES = 20;

/*
 * Drift views. They tell apart what changed outside converge (live ≠ last applied), what is only
 * pending (the manifests moved, live did not), what converge cannot see (a secret behind a moved
 * hash) and what is gone, naming object and field.
 */

export const DRIFT_FORMAT_VERSION = '1.0';

const CAUSE_ORDER: DriftCause[] = ['outside', 'missing', 'hidden', 'pending'];

export function causeTitle(cause: DriftCause): string {
  switch (cause) {
    case 'outside':
      return 'Changed outside converge (last applied → live)';
    case 'missing':
      return 'Missing: owned by converge, gone from the live service';
    case 'hidden':
      return 'A field converge cannot read may have changed';
    case 'pending':
      return 'Pending: the manifests changed, live did not (last applied → manifests)';
    default:
      return assertNever(cause, 'drift cause');
  }
}

function causeMark(cause: DriftCause): string {
  switch (cause) {
    case 'outside':
      return '!';
    case 'missing':
      return '?';
    case 'hidden':
      return '*';
    case 'pending':
      return '>';
    default:
      return assertNever(cause, 'drift cause');
  }
}

export interface DriftCounts {
  outside: number;
  pending: number;
  missing: number;
  hidden: number;
}

export function countDrift(items: readonly DriftItem[]): DriftCounts {
  const c: DriftCounts = { outside: 0, pending: 0, missing: 0, hidden: 0 };
  for (const i of items) c[i.cause] += 1;
  return c;
}

/** Drift items as indented text lines, grouped by cause (used by the plan text too). */
export function renderDriftItemsText(items: readonly DriftItem[], paint: Paint): string[] {
  const lines: string[] = [];
  for (const cause of CAUSE_ORDER) {
    const group = items.filter((i) => i.cause === cause);
    if (group.length === 0) continue;
    if (lines.length > 0) lines.push('');
    lines.push(`  ${causeTitle(cause)}:`);
    for (const item of group) {
      lines.push(`  ${paint(cause === 'pending' ? 'yellow' : 'magenta', causeMark(cause))} ${paint('bold', `${item.kind}/${item.name}`)}`);
      lines.push(`      ${paint('dim', `# ${driftSentence(item)}`)}`);
      for (const { line: f, sides } of shownFields(item.fields, presentFields(item.fields), { create: false })) {
        if (sides) lines.push(...heredocLines(f.path, sides).map((l) => `      ${l}`.trimEnd()));
        else lines.push(`      ${formatFieldLine(f)}`);
      }
    }
  }
  return lines;
}

/**
 * Drift a plan cannot show by itself: changes made outside converge, owned objects gone, and
 * fields converge cannot read. `pending` (the manifests moved, live did not) is exactly what the
 * plan's own changes list, so plan and apply leave it out; `converge drift` shows it.
 */
export function informativeDrift(items: readonly DriftItem[]): DriftItem[] {
  return items.filter((i) => i.cause !== 'pending');
}

function countsLine(c: DriftCounts): string {
  return `Drift: ${c.outside} changed outside converge, ${c.pending} pending, ${c.missing} missing, ${plural(c.hidden, 'hidden field change')}.`;
}

export function renderDriftText(plan: Plan, opts: { color: boolean }): string {
  const paint = painter(opts.color);
  const env = environmentLine(plan);
  const out: string[] = env === undefined ? [] : [env, ''];
  if (plan.drift.length === 0) {
    out.push('No drift. Live state matches what converge last applied.');
  } else {
    out.push(...renderDriftItemsText(plan.drift, paint), '', paint('bold', countsLine(countDrift(plan.drift))));
  }
  if (hasChanges(plan)) {
    const s = plan.summary;
    out.push(`The manifests also plan ${s.create} to create, ${s.update} to update, ${s.delete} to delete, ${s.upgrade} to upgrade: see \`converge plan\`.`);
  }
  return out.join('\n') + '\n';
}

export interface DriftReport {
  formatVersion: typeof DRIFT_FORMAT_VERSION;
  inSync: boolean;
  counts: DriftCounts;
  drift: JsonDriftItem[];
  /** What `converge plan` would do (objects without a state record show here, not as drift). */
  summary: Plan['summary'];
  /** The environment (`--env`) checked; absent without one. */
  environment?: string;
}

export function driftReport(plan: Plan): DriftReport {
  return {
    formatVersion: DRIFT_FORMAT_VERSION,
    inSync: plan.drift.length === 0 && !hasChanges(plan),
    counts: countDrift(plan.drift),
    drift: plan.drift.map(jsonDriftItem),
    summary: plan.summary,
    ...(plan.environment !== undefined ? { environment: plan.environment } : {}),
  };
}

export function renderDriftJson(plan: Plan): string {
  return JSON.stringify(driftReport(plan), null, 2);
}

function driftMark(item: DriftItem): string {
  return `${causeMark(item.cause)} ${item.kind}/${item.name}`;
}

/** One drifted object as a collapsed section: the message, then its fields as a diff. */
function driftSection(item: DriftItem): string {
  const what = item.fields.length > 0 ? plural(item.fields.length, 'field') : item.cause;
  const diff: string[] = [];
  for (const { line: f, sides } of shownFields(item.fields, presentFields(item.fields), { create: false })) {
    diff.push(...(sides ? heredocDiffLines(f.path, sides) : diffFieldLines(f)));
  }
  return [
    `<details><summary><code>${htmlEscape(driftMark(item))}</code> ${htmlEscape(what)}</summary>`,
    '',
    mdEscape(driftSentence(item)),
    '',
    ...(diff.length > 0 ? [mdFence('diff', diff.join('\n')), ''] : []),
    '</details>',
    '',
    '',
  ].join('\n');
}

function names(items: readonly { kind: string; name: string }[]): string {
  const shown = items.slice(0, BANNER_NAMES).map((i) => mdCode(`${i.kind}/${i.name}`));
  return shown.join(', ') + (items.length > BANNER_NAMES ? ` and ${items.length - BANNER_NAMES} more` : '');
}

function driftHead(plan: Plan, title: string): string {
  const out: string[] = [environmentHeading(plan, title), ''];
  const missing = plan.drift.filter((i) => i.cause === 'missing');
  if (missing.length > 0) {
    out.push('> [!CAUTION]', `> **${plural(missing.length, 'object')} converge owns ${missing.length === 1 ? 'is' : 'are'} gone from the live service** (deleted outside converge?): ${names(missing)}.`, '');
  }
  const deletes = plan.changes.filter((c) => c.action === 'delete');
  if (deletes.length > 0) {
    out.push('> [!CAUTION]', `> Applying the manifests now would **delete ${plural(deletes.length, 'object')}**: ${names(deletes)}.`, '');
  }
  if (plan.drift.length === 0) {
    out.push('No drift. Live state matches what converge last applied.', '');
  } else {
    const c = countDrift(plan.drift);
    out.push('| Changed outside converge | Pending | Missing | Hidden |', '|---:|---:|---:|---:|', `| ${c.outside} | ${c.pending} | ${c.missing} | ${c.hidden} |`, '');
  }
  if (hasChanges(plan)) {
    const s = plan.summary;
    out.push(`The manifests also plan ${s.create} to create, ${s.update} to update, ${s.delete} to delete, ${s.upgrade} to upgrade (run \`converge plan\` for details).`, '');
  }
  return out.join('\n') + '\n';
}

/**
 * Drift as an issue body / job summary: banners for objects gone from the live service and for
 * deletions the manifests would make, a counts table, then one collapsed section per drifted
 * object, grouped by cause. Never longer than `maxLength` (GitHub caps issue bodies at 65 536).
 */
export function renderDriftMarkdown(plan: Plan, opts: { title?: string; maxLength?: number } = {}): string {
  const maxLength = opts.maxLength ?? DEFAULT_MARKDOWN_MAX;
  const sections: string[] = [];
  for (const cause of CAUSE_ORDER) {
    const group = plan.drift.filter((i) => i.cause === cause);
    group.forEach((item, i) => sections.push((i === 0 ? `### ${mdEscape(causeTitle(cause))}\n\n` : '') + driftSection(item)));
  }
  const note = (shown: number, total: number) =>
    `> [!NOTE]\n> Showing ${shown} of ${total} drifted objects: the rest was cut to keep this under ${maxLength} characters. Run \`converge drift\` for the full report.\n`;
  return fitSections(driftHead(plan, opts.title ?? 'converge drift'), sections, maxLength, note);
}
