import { describe, expect, it } from 'vitest';
import { loadWorkflow } from './extract.js';

/*
 * Runs the actions/github-script snippets of plan.yml and drift.yml against a small in-memory
 * stand-in for the GitHub REST API (comments, issues, labels), to check the promises they make:
 * ONE sticky plan comment updated on every push, never over 65 536 characters; ONE drift issue
 * opened, then updated, then closed when drift clears.
 */

interface Comment {
  id: number;
  body: string;
  user: { type: string };
}
interface Issue {
  number: number;
  title: string;
  body: string;
  state: 'open' | 'closed';
  labels: string[];
  comments: string[];
}

class FakeGitHub {
  comments: Comment[] = [];
  issues: Issue[] = [];
  labels = new Set<string>();
  private next = 1;
  paginate = async <T>(fn: (p: unknown) => Promise<{ data: T[] }>, params: unknown): Promise<T[]> => (await fn(params)).data;
  rest = {
    issues: {
      listComments: async () => ({ data: this.comments.map((c) => ({ ...c })) }),
      createComment: async (p: { issue_number: number; body: string }) => {
        const issue = this.issues.find((i) => i.number === p.issue_number);
        if (issue) issue.comments.push(p.body);
        else this.comments.push({ id: this.next++, body: p.body, user: { type: 'Bot' } });
        return { data: {} };
      },
      updateComment: async (p: { comment_id: number; body: string }) => {
        const c = this.comments.find((x) => x.id === p.comment_id);
        if (!c) throw Object.assign(new Error('Not Found'), { status: 404 });
        c.body = p.body;
        return { data: c };
      },
      getLabel: async (p: { name: string }) => {
        if (!this.labels.has(p.name)) throw Object.assign(new Error('Not Found'), { status: 404 });
        return { data: { name: p.name } };
      },
      createLabel: async (p: { name: string }) => {
        this.labels.add(p.name);
        return { data: {} };
      },
      listForRepo: async (p: { state: string; labels: string }) => ({
        data: this.issues.filter((i) => i.state === p.state && i.labels.includes(p.labels)),
      }),
      create: async (p: { title: string; body: string; labels: string[] }) => {
        const issue: Issue = { number: this.next++, title: p.title, body: p.body, labels: p.labels, state: 'open', comments: [] };
        this.issues.push(issue);
        return { data: issue };
      },
      update: async (p: { issue_number: number; body?: string; state?: 'open' | 'closed' }) => {
        const issue = this.issues.find((i) => i.number === p.issue_number);
        if (!issue) throw new Error('no issue');
        if (p.body !== undefined) issue.body = p.body;
        if (p.state !== undefined) issue.state = p.state;
        return { data: issue };
      },
    },
  };
}

const context = { repo: { owner: 'acme', repo: 'platform' }, issue: { number: 7 }, sha: '0123456789abcdef', serverUrl: 'https://github.com', runId: 42 };

function stepScript(file: string, match: (s: { name?: string; if?: string }) => boolean): string {
  const steps = Object.values(loadWorkflow(file).jobs).flatMap((j) => j.steps);
  const step = steps.find((s) => s.uses?.startsWith('actions/github-script') && match(s));
  const script = step?.with?.script;
  if (typeof script !== 'string') throw new Error(`no github-script step in ${file}`);
  return script;
}

async function runScript(script: string, github: FakeGitHub, files: Record<string, string>, env: Record<string, string> = {}): Promise<void> {
  const req = (m: string) => {
    if (m !== 'node:fs' && m !== 'fs') throw new Error(`unexpected require(${m})`);
    return { readFileSync: (f: string) => files[f] ?? '' };
  };
  const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (...args: string[]) => (...a: unknown[]) => Promise<void>;
  const fn = new AsyncFunction('github', 'context', 'require', 'process', script);
  await fn(github, context, req, { env });
}

describe('plan.yml comment script', () => {
  const script = stepScript('plan.yml', (s) => /comment/i.test(s.name ?? ''));

  it('posts one comment, then updates it on the next push instead of adding another', async () => {
    const gh = new FakeGitHub();
    gh.comments.push({ id: 99, body: 'LGTM', user: { type: 'User' } });
    await runScript(script, gh, { 'plan.md': '## converge plan\n\nfirst' }, { PLAN_EXITCODE: '2' });
    await runScript(script, gh, { 'plan.md': '## converge plan\n\nsecond' }, { PLAN_EXITCODE: '0' });
    const mine = gh.comments.filter((c) => c.body.includes('<!-- converge-plan -->'));
    expect(mine).toHaveLength(1);
    expect(mine[0]?.body).toContain('second');
    expect(mine[0]?.body).toContain('(no changes)');
    expect(gh.comments.find((c) => c.id === 99)?.body).toBe('LGTM');
  });

  it('never sends a body over 65 536 characters, even for a plan.md at the limit', async () => {
    const gh = new FakeGitHub();
    await runScript(script, gh, { 'plan.md': '## converge plan\n' + 'x'.repeat(65_536 - 17) }, { PLAN_EXITCODE: '2' });
    expect(gh.comments[0]?.body.length).toBeLessThanOrEqual(65_536);
    expect(gh.comments[0]?.body).toContain('cut to fit a comment');
  });
});

describe('drift.yml issue scripts', () => {
  const open = stepScript('drift.yml', (s) => s.if?.includes("'2'") === true);
  const close = stepScript('drift.yml', (s) => s.if?.includes("'0'") === true);

  it('opens one labelled issue, updates it while drift lasts, closes it when drift clears', async () => {
    const gh = new FakeGitHub();
    await runScript(open, gh, { 'drift.md': '## converge drift\n\nday 1' });
    await runScript(open, gh, { 'drift.md': '## converge drift\n\nday 2' });
    expect(gh.issues).toHaveLength(1);
    expect(gh.issues[0]).toMatchObject({ state: 'open', labels: ['converge-drift'] });
    expect(gh.issues[0]?.body).toContain('day 2');
    expect(gh.labels.has('converge-drift')).toBe(true);
    await runScript(close, gh, {});
    expect(gh.issues[0]?.state).toBe('closed');
    expect(gh.issues[0]?.comments.join()).toContain('No drift any more');
    // Drift comes back: a new issue, the closed one stays closed.
    await runScript(open, gh, { 'drift.md': '## converge drift\n\nagain' });
    expect(gh.issues.filter((i) => i.state === 'open')).toHaveLength(1);
    expect(gh.issues).toHaveLength(2);
  });

  it('keeps the issue body within 65 536 characters', async () => {
    const gh = new FakeGitHub();
    await runScript(open, gh, { 'drift.md': 'y'.repeat(65_536) });
    expect(gh.issues[0]?.body.length).toBeLessThanOrEqual(65_536);
  });
});
