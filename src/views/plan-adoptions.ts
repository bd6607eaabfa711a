import { adoptions, type Change, type Plan } from '../plan/types.js';
import { noteSentence } from './change-sentences.js';
import { mdCode } from './markdown.js';
import { plural, type Paint } from './format.js';

/*
 * Adoptions (decisions.md §9): unowned live objects that already match the manifests. They are not
 * changes (the summary and `--detailed-exitcode` ignore them), but the plan says them, because the
 * next apply records them as owned and a later removal of their document then deletes them.
 */

export function adoptionLine(plan: Pick<Plan, 'changes'>): string | undefined {
  const n = adoptions(plan).length;
  if (n === 0) return undefined;
  return `${plural(n, 'existing object')} ${n === 1 ? 'matches' : 'match'} the manifests and will be recorded as owned by the next apply (nothing is sent for ${n === 1 ? 'it' : 'them'}).`;
}

/** Notes worth a line under the object: the provider's (how a rule was matched), not the generic one the heading says. */
export function adoptionNotes(c: Change): string[] {
  return c.notes.filter((n) => n.code !== 'adopt-matches').map(noteSentence);
}

/** The text plan's section: one line per adopted object, with the provider's notes under it. */
export function renderAdoptionsText(plan: Pick<Plan, 'changes'>, paint: Paint): string[] {
  const adopted = adoptions(plan);
  if (adopted.length === 0) return [];
  const out = ['converge will record these existing objects as owned (they match the manifests; nothing is sent):', ''];
  for (const c of adopted) {
    out.push(`  ${paint('bold', `= ${c.kind}/${c.name}`)}${c.id !== undefined && c.id !== c.name ? paint('dim', ` (id ${c.id})`) : ''}`);
    for (const n of adoptionNotes(c)) out.push(`      ${paint('dim', `note: ${n}`)}`);
  }
  out.push('');
  return out;
}

const MARKDOWN_NAMES = 20;

/** The Markdown plan's line: how many, and which (the first 20). */
export function adoptionMarkdown(plan: Pick<Plan, 'changes'>): string[] {
  const adopted = adoptions(plan);
  const line = adoptionLine(plan);
  if (line === undefined) return [];
  const names = adopted.slice(0, MARKDOWN_NAMES).map((c) => mdCode(`${c.kind}/${c.name}`));
  const more = adopted.length > MARKDOWN_NAMES ? ` and ${adopted.length - MARKDOWN_NAMES} more` : '';
  return [`${line.replace(/\.$/, ':')} ${names.join(', ')}${more}.`, ''];
}
