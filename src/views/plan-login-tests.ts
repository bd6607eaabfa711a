import type { Plan, PlanLoginOutcome } from '../plan/types.js';
import { mdCode, mdEscape } from './markdown.js';

/*
 * The plan's login tests in the PR comment: each test with pass or fail, then the tests whose claims
 * get something else once the plan is applied than from what Nomad holds now (before → after). Rows
 * are capped so the section stays small within the comment's size budget; the rest is counted.
 */

const MAX_ROWS = 40;

const names = (xs: readonly string[]): string => (xs.length === 0 ? 'none' : xs.join(', '));

/** One outcome in a phrase: refused (why), a management token, or roles and policies. */
export function outcomePhrase(o: PlanLoginOutcome): string {
  if (o.refused) return `refused${o.refusal ? ` (${o.refusal})` : ''}`;
  if (o.management) return 'management token';
  return `roles ${names(o.roles)}; policies ${names(o.policies)}`;
}

const more = (n: number): string[] => (n > 0 ? [`…and ${n} more (run \`converge plan --json\` for all).`, ''] : []);

export function loginTestsMarkdown(plan: Plan): string[] {
  const t = plan.loginTests;
  if (!t || t.results.length === 0) return [];
  const passed = t.results.filter((r) => r.passed).length;
  const out = ['### Login tests', '', `${passed} of ${t.results.length} login ${t.results.length === 1 ? 'test passes' : 'tests pass'} against this plan.`, ''];
  out.push('| Test | Auth method | Result |', '|---|---|---|');
  for (const r of t.results.slice(0, MAX_ROWS)) {
    out.push(`| ${mdCode(r.name)} | ${mdCode(r.authMethod)} | ${r.passed ? 'pass' : `**fail**: ${mdEscape(r.failures.join('; '))}`} |`);
  }
  out.push('', ...more(t.results.length - MAX_ROWS));
  if (!t.liveRead) {
    out.push('The live side was not read (no Nomad ACL object read): no before → after comparison.', '');
    return out;
  }
  const changed = t.results.filter((r) => r.changed && r.live);
  if (changed.length === 0) {
    out.push('No login test\'s claims change outcome between what Nomad holds now and this plan.', '');
    return out;
  }
  out.push(`**Claims that change outcome** (what Nomad holds now → this plan applied):`, '');
  for (const r of changed.slice(0, MAX_ROWS)) {
    if (r.live) out.push(`- ${mdCode(r.name)} (${mdCode(r.authMethod)}): ${mdEscape(outcomePhrase(r.live))} → ${mdEscape(outcomePhrase(r.planned))}`);
  }
  out.push('', ...more(changed.length - MAX_ROWS));
  return out;
}
