import { refreshes, type Change, type Plan } from '../plan/types.js';
import { informativeDrift, renderDriftItemsText } from './drift.js';
import { actionColor, actionSymbol, describeDiagnosticCount, changeFieldLines, formatFieldLine, painter, upgradeLine, type Paint } from './format.js';
import { summaryLine } from './plan-summary.js';
import { noteLines, originLine, reasonLine } from './change-sentences.js';
import { heredocLines, shownFields } from './multiline-diff.js';
import { adoptionLine, renderAdoptionsText } from './plan-adoptions.js';
import { environmentLine, isRefreshOnly, noticeSentences, NOTHING_TO_REFRESH, refreshLine, renderRefreshesText, stateLine } from './plan-notices.js';

/*
 * Terraform-like text of a Plan. A pure function of the plain Plan data that the JSON view keeps
 * (changes without no-ops, drift, diagnostics, summary), so the text rendered from a plan parsed back
 * from `plan --json` is identical. No-op changes are not shown; diagnostics are rendered by
 * views/diagnostics.ts and only counted here.
 */

const INDENT = '      ';

function headerNote(c: Change): string {
  if (c.action === 'delete' && c.deletion !== undefined) return ` (deletion: ${c.deletion})`;
  return '';
}

export function renderChangeText(c: Change, paint: Paint): string[] {
  const lines: string[] = [];
  const symbol = paint(actionColor(c.action), actionSymbol(c.action));
  lines.push(`  ${symbol} ${paint('bold', `${c.kind}/${c.name}`)}${headerNote(c)}`);
  const origin = originLine(c);
  if (origin !== undefined) lines.push(`${INDENT}${paint('dim', `# ${origin}`)}`);
  const reason = reasonLine(c);
  if (reason !== undefined) lines.push(`${INDENT}${paint('dim', `# ${reason}`)}`);
  const version = upgradeLine(c);
  if (version !== undefined) lines.push(`${INDENT}${version}`);
  if (c.action !== 'delete') {
    for (const { line: f, sides } of shownFields(c.fields, changeFieldLines(c), { create: c.action === 'create' })) {
      if (sides) {
        for (const l of heredocLines(f.path, sides)) lines.push(`${INDENT}${l}`.trimEnd());
        continue;
      }
      lines.push(c.action === 'create' ? `${INDENT}${f.path}: ${f.after ?? '(absent)'}` : `${INDENT}${formatFieldLine(f)}`);
    }
  }
  for (const n of noteLines(c)) lines.push(`${INDENT}${paint('dim', `note: ${n}`)}`);
  return lines;
}

export function renderPlanText(plan: Plan, opts: { color: boolean }): string {
  const paint = painter(opts.color);
  const shown = plan.changes.filter((c) => c.action !== 'no-op');
  const out: string[] = [];
  const env = environmentLine(plan);
  const where = stateLine(plan);
  if (env !== undefined) out.push(env);
  if (where !== undefined) out.push(where, '');
  else if (env !== undefined) out.push('');
  const notices = noticeSentences(plan);
  if (notices.length > 0) out.push(...notices, '');
  if (shown.length > 0) {
    out.push('converge will perform these actions:', '');
    for (const c of shown) out.push(...renderChangeText(c, paint), '');
  }
  out.push(...renderAdoptionsText(plan, paint));
  out.push(...renderRefreshesText(plan, paint));
  // Pending drift (the manifests moved, live did not) is the plan above said again: only what the
  // plan cannot show is listed here; `converge drift` has the full report.
  const drift = informativeDrift(plan.drift);
  if (drift.length > 0) {
    out.push('Drift since the last apply:', '', ...renderDriftItemsText(drift, paint), '');
  }
  const diags = describeDiagnosticCount(plan.diagnostics);
  if (diags !== undefined) out.push(`Diagnostics: ${diags} (reported separately).`, '');
  const refreshOnly = isRefreshOnly(plan);
  if (!refreshOnly || refreshes(plan).length === 0) out.push(paint('bold', refreshOnly ? NOTHING_TO_REFRESH : summaryLine(plan.summary)));
  const adopting = adoptionLine(plan);
  if (adopting !== undefined) out.push(adopting);
  const refreshing = refreshLine(plan);
  if (refreshing !== undefined) out.push(refreshing);
  return out.join('\n') + '\n';
}
