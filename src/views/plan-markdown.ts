import { refreshes, type Change, type Plan } from '../plan/types.js';
import { countDrift, informativeDrift } from './drift.js';
import { actionSymbol, describeDiagnosticCount, changeFieldLines, diffFieldLines, plural, upgradeLine } from './format.js';
import { DEFAULT_MARKDOWN_MAX, fitSections, htmlEscape, mdCode, mdFence } from './markdown.js';
import { NO_CHANGES } from './plan-summary.js';
import { noteLines, originLine, reasonLine } from './change-sentences.js';
import { heredocDiffLines, shownFields } from './multiline-diff.js';
import { adoptionMarkdown } from './plan-adoptions.js';
import { loginTestsMarkdown } from './plan-login-tests.js';
import { environmentHeading, isRefreshOnly, NOTHING_TO_REFRESH, noticesMarkdown, stateLine } from './plan-notices.js';

/*
 * A plan as a PR comment / job summary. GitHub caps a comment at 65 536 characters, so the output
 * never exceeds `maxLength`: the per-object section is cut (with a note saying how much), the
 * summary table and the deletion banner are always kept. Secrets are already placeholders in the plan.
 */

export { DEFAULT_MARKDOWN_MAX };
const BANNER_NAMES = 20;

function diffLines(c: Change): string[] {
  const lines: string[] = [`${actionSymbol(c.action)} ${c.kind}/${c.name}${c.deletion ? ` (deletion: ${c.deletion})` : ''}`];
  const origin = originLine(c);
  if (origin !== undefined) lines.push(`# ${origin}`);
  const reason = reasonLine(c);
  if (reason !== undefined) lines.push(`# ${reason}`);
  const u = c.upgrade;
  const version = upgradeLine(c);
  if (u && version !== undefined) {
    if (u.from === u.to) lines.push(`  ${version}`);
    else lines.push(`- version: ${u.from ?? '(none)'}`, `+ version: ${u.to ?? '(none)'}`);
  }
  for (const { line: f, sides } of shownFields(c.fields, changeFieldLines(c), { create: c.action === 'create' })) {
    if (sides) lines.push(...heredocDiffLines(f.path, sides));
    else lines.push(...diffFieldLines(f));
  }
  for (const n of noteLines(c)) lines.push(`# note: ${n}`);
  return lines;
}

function objectSection(c: Change): string {
  const shown = changeFieldLines(c).length;
  const what = shown > 0 ? `${c.action}, ${plural(shown, 'field')}` : c.action;
  return [
    `<details><summary><code>${htmlEscape(`${actionSymbol(c.action)} ${c.kind}/${c.name}`)}</code> ${htmlEscape(what)}</summary>`,
    '',
    mdFence('diff', diffLines(c).join('\n')),
    '',
    '</details>',
    '',
    '',
  ].join('\n');
}

function head(plan: Plan, title: string, deletes: Change[]): string {
  const s = plan.summary;
  const out: string[] = [environmentHeading(plan, title), ''];
  const where = stateLine(plan, mdCode);
  if (where !== undefined) out.push(where, '');
  if (deletes.length > 0) {
    const names = deletes.slice(0, BANNER_NAMES).map((c) => mdCode(`${c.kind}/${c.name}`));
    const more = deletes.length > BANNER_NAMES ? ` and ${deletes.length - BANNER_NAMES} more` : '';
    out.push('> [!CAUTION]', `> This plan **deletes ${plural(deletes.length, 'object')}**: ${names.join(', ')}${more}.`, '');
  }
  out.push('| Create | Update | Delete | Upgrade |', '|---:|---:|---:|---:|', `| ${s.create} | ${s.update} | ${s.delete} | ${s.upgrade} |`, '');
  const diags = describeDiagnosticCount(plan.diagnostics);
  if (diags !== undefined) out.push(`> [!WARNING]`, `> The plan reported ${diags}: see the run log.`, '');
  // Pending drift is this plan's own changes said again: only drift the plan cannot show is counted.
  const drift = informativeDrift(plan.drift);
  if (drift.length > 0) {
    const d = countDrift(drift);
    out.push(
      `**Drift since the last apply:** ${d.outside} changed outside converge, ${d.missing} missing, ${d.hidden} hidden (run \`converge drift\` for details).`,
      '',
    );
  }
  if (isRefreshOnly(plan)) {
    if (refreshes(plan).length === 0) out.push(NOTHING_TO_REFRESH, '');
  } else if (s.create + s.update + s.delete + s.upgrade === 0) out.push(NO_CHANGES, '');
  out.push(...adoptionMarkdown(plan));
  out.push(...noticesMarkdown(plan));
  out.push(...loginTestsMarkdown(plan));
  return out.join('\n') + '\n';
}

function truncationNote(shown: number, total: number, maxLength: number): string {
  return [
    '> [!NOTE]',
    `> Showing ${shown} of ${total} changed objects: the rest was cut to keep this comment under ${maxLength} characters. Run \`converge plan\` for the full plan.`,
    '',
  ].join('\n');
}

export function renderPlanMarkdown(plan: Plan, opts: { title?: string; maxLength?: number } = {}): string {
  const maxLength = opts.maxLength ?? DEFAULT_MARKDOWN_MAX;
  const changes = plan.changes.filter((c) => c.action !== 'no-op');
  const top = head(plan, opts.title ?? 'converge plan', changes.filter((c) => c.action === 'delete'));
  const heading = changes.length > 0 ? '### Changes\n\n' : '';
  return fitSections(top + heading, changes.map(objectSection), maxLength, (shown, total) => truncationNote(shown, total, maxLength));
}
