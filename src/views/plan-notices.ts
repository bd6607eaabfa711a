import { assertNever } from '../model/action.js';
import { refreshes, type Change, type Plan, type PlanNotice } from '../plan/types.js';
import { formatFieldLine, plural, presentFields, type Paint } from './format.js';
import { mdCode } from './markdown.js';
import { noteSentence } from './change-sentences.js';

/*
 * Plan-wide notices (out-of-scope objects, dependencies a --target pulled in, refresh-only) and
 * refreshes of state records, turned into sentences. The plan holds them as data (codes and
 * addresses); only this file words them, for the text and Markdown views alike.
 */

const NAMES = 20;

function names(list: readonly string[], code: (s: string) => string = (s) => s): string {
  const shown = list.slice(0, NAMES).map(code).join(', ');
  return list.length > NAMES ? `${shown} and ${list.length - NAMES} more` : shown;
}

/** One sentence per notice; `code` formats an address or a path (backticks in Markdown). */
export function noticeSentences(plan: Pick<Plan, 'notices'>, code: (s: string) => string = (s) => s): string[] {
  return (plan.notices ?? []).map((n: PlanNotice) => {
    switch (n.code) {
      case 'refresh-only':
        return 'Refresh only: nothing is sent to the services; the next apply only brings the state records below up to the live objects.';
      case 'destroy':
        return (
          'Destroy plan: every object this state owns in scope is deleted, dependents first, each under its own deletion policy; protected objects are refused.' +
          (n.deletion !== undefined ? ` --deletion ${n.deletion} overrides every workspace's deletion policy for this run.` : '')
        );
      case 'target-dependent':
        return `--target ${code(`${n.target.kind}/${n.target.name}`)} also deletes ${code(`${n.dependent.kind}/${n.dependent.name}`)}, which depends on it.`;
      case 'target-dependency':
        return `--target ${code(`${n.target.kind}/${n.target.name}`)} also plans ${code(`${n.dependency.kind}/${n.dependency.name}`)}, which it depends on.`;
      case 'out-of-scope': {
        const files = [...new Set(n.objects.map((o) => o.source))].sort();
        return `${plural(n.objects.length, 'owned object')} left alone, from manifest files that exist but were not given (${names(files, code)}): ${names(n.objects.map((o) => `${o.kind}/${o.name}`), code)}.`;
      }
      case 'source-unresolved': {
        const files = [...new Set(n.objects.map((o) => o.source))].sort();
        return (
          `${plural(n.objects.length, 'owned object')} left alone: ${n.objects.length === 1 ? 'its' : 'their'} recorded manifest file${files.length === 1 ? '' : 's'} (${names(files, code)}, recorded by an older converge relative to the directory it ran in) cannot be found from here: ` +
          `${names(n.objects.map((o) => `${o.kind}/${o.name}`), code)}. Nothing is deleted for it; a plan that gives ${n.objects.length === 1 ? 'its document' : 'their documents'} records the file again.`
        );
      }
      case 'adoption-needs-consent': {
        const why = n.why === 'new-state' ? `this state (${n.state}) is new: it owns nothing yet` : `this state (${n.state}) is named`;
        return (
          `WARNING: ${why}, and the plan would record ${plural(n.objects.length, 'existing object')} as its own: ${names(n.objects.map((o) => `${o.kind}/${o.name}`), code)}. ` +
          `${n.objects.length === 1 ? 'It' : 'They'} may belong to another state (a state file at another path, another team's state). ` +
          `If ${n.objects.length === 1 ? 'it is' : 'they are'} this state's, apply with --adopt-all (or --adopt Kind/name each; on a terminal, answering yes consents); ` +
          `otherwise point Settings \`state.path\` at the state that owns ${n.objects.length === 1 ? 'it' : 'them'}. Without consent apply refuses and sends nothing.`
        );
      }
      default:
        return assertNever(n, 'plan notice');
    }
  });
}

/** The header line naming the state the plan was made against (decisions.md §27); undefined for older plans. */
/** Which environment the plan is for, when it was made for one (`--env`). */
export function environmentLine(plan: Pick<Plan, 'environment'>, code: (s: string) => string = (s) => s): string | undefined {
  return plan.environment === undefined ? undefined : `Environment: ${code(plan.environment)}.`;
}

/** A Markdown report's heading, naming the environment when the run had one. */
export function environmentHeading(plan: Pick<Plan, 'environment'>, title: string): string {
  return plan.environment === undefined ? `## ${title}` : `## ${title}: environment ${mdCode(plan.environment)}`;
}

export function stateLine(plan: Pick<Plan, 'state'>, code: (s: string) => string = (s) => s): string | undefined {
  const s = plan.state;
  if (s === undefined) return undefined;
  const named = s.name !== undefined ? `, named ${code(s.name)}` : '';
  const held = s.new ? 'new: it owns nothing yet' : plural(s.records, 'owned object');
  return `State: ${code(s.location)} (${held}${named}).`;
}

export function isRefreshOnly(plan: Pick<Plan, 'notices'>): boolean {
  return (plan.notices ?? []).some((n) => n.code === 'refresh-only');
}

/** A refresh-only plan changes nothing live, so "no changes" would say nothing; it says whether records move. */
export const NOTHING_TO_REFRESH = 'Nothing to refresh: every state record matches its live object.';

/** A destroy with nothing owned in scope (nothing left, or a second destroy). */
export const NOTHING_TO_DESTROY = 'Nothing to destroy: this state owns no object in scope.';

/** The summary's extra line for refreshes, or undefined without any. */
export function refreshLine(plan: Pick<Plan, 'changes'>): string | undefined {
  const n = refreshes(plan).length;
  if (n === 0) return undefined;
  return `${plural(n, 'state record')} of owned objects will be brought up to the live objects by the next apply (nothing is sent).`;
}

function refreshDetail(c: Change): string[] {
  switch (c.refresh) {
    case 'gone': {
      // A move's leftover is not gone live: its object is owned at the move's new address.
      const leftover = c.notes.find((n) => n.code === 'moved-leftover');
      return [leftover ? noteSentence(leftover) : 'gone from the live service: its record is dropped'];
    }
    case 'source':
    case undefined:
      return ['its manifest file is recorded (nothing else changed)'];
    case 'live':
      return presentFields(c.fields).map((l) => `${formatFieldLine(l)} (recorded → live)`);
    case 'run': {
      const ended = c.notes.find((n) => n.code === 'run-applied-since');
      const run = ended?.code === 'run-applied-since' ? `${ended.purpose} run ${ended.runId}` : 'a run';
      return [`${run} started by an earlier apply has applied since: its result is recorded and the run forgotten`];
    }
    default:
      return assertNever(c.refresh, 'refresh kind');
  }
}

/** The text plan's section: each refreshed record and what it takes from the live object. */
export function renderRefreshesText(plan: Pick<Plan, 'changes'>, paint: Paint): string[] {
  const list = refreshes(plan);
  if (list.length === 0) return [];
  const out = ['converge will bring these state records up to the live objects (nothing is sent):', ''];
  for (const c of list) {
    out.push(`  ${paint('bold', `= ${c.kind}/${c.name}`)}`);
    for (const line of refreshDetail(c)) out.push(`      ${paint('dim', line)}`);
  }
  out.push('');
  return out;
}

/** Markdown: the notices, then the refresh line naming the records. */
export function noticesMarkdown(plan: Pick<Plan, 'changes' | 'notices'>): string[] {
  const out = noticeSentences(plan, mdCode).flatMap((s) => [s, '']);
  const line = refreshLine(plan);
  if (line !== undefined) out.push(`${line.replace(/\.$/, ':')} ${names(refreshes(plan).map((c) => `${c.kind}/${c.name}`), mdCode)}.`, '');
  return out;
}
