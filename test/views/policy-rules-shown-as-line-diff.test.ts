import { describe, expect, it } from 'vitest';
import { summarize, type Change, type Plan } from '../../src/plan/types.js';
import { parsePlanJson, renderPlanJson } from '../../src/views/plan-json.js';
import { renderPlanText } from '../../src/views/plan-text.js';
import { renderPlanMarkdown } from '../../src/views/plan-markdown.js';
import { renderDriftMarkdown, renderDriftText } from '../../src/views/drift.js';

/*
 * Regression: a changed Nomad ACL policy's `rules` (multi-line HCL) was one JSON-escaped string on
 * each side of the arrow, so a reviewer could not see which line changed. Like Terraform's heredoc
 * diff, the text plan now shows it line by line.
 */

const OLD = 'namespace "default" {\n  policy = "read"\n}\n\nnode {\n  policy = "read"\n}\n';
const NEW = 'namespace "default" {\n  policy = "write"\n}\n\nnode {\n  policy = "read"\n}\n';

function plan(changes: Change[], drift: Plan['drift'] = []): Plan {
  return { formatVersion: '1.0', createdAt: '', changes, drift, diagnostics: [], summary: summarize(changes) };
}

/** The heredoc as it sits in a Markdown `diff` fence: markers in column 0, the frame as context. */
const RULES_DIFF = [
  '  rules: <<-EOT',
  '  namespace "default" {',
  '-   policy = "read"',
  '+   policy = "write"',
  '  }',
  '',
  '  node {',
  '    policy = "read"',
  '  }',
  '  EOT',
].join('\n');

describe('multi-line strings in the text plan', () => {
  it('an update shows the changed lines of the rules, with the others as context', () => {
    const p = plan([
      { kind: 'NomadAclPolicy', name: 'readonly', action: 'update', reasons: [{ code: 'differs', paths: ['rules'] }], fields: [{ path: 'rules', before: OLD, after: NEW, sensitive: false }], notes: [] },
    ]);
    const text = renderPlanText(p, { color: false });
    expect(text).toContain(
      [
        '      rules: <<-EOT',
        '        namespace "default" {',
        '      -   policy = "read"',
        '      +   policy = "write"',
        '        }',
        '',
        '        node {',
        '          policy = "read"',
        '        }',
        '      EOT',
      ].join('\n'),
    );
    expect(text).not.toContain('\\n');
    // The JSON keeps the raw strings, so the text made from it is the same.
    expect(renderPlanText(parsePlanJson(renderPlanJson(p)), { color: false })).toBe(text);
  });

  it('a create shows every line added; a one-line string stays on one line', () => {
    const p = plan([
      { kind: 'NomadAclPolicy', name: 'ops', action: 'create', reasons: [{ code: 'new' }], fields: [{ path: 'description', before: null, after: 'ops', sensitive: false }, { path: 'rules', before: null, after: 'node {\n  policy = "write"\n}', sensitive: false }], notes: [] },
    ]);
    const text = renderPlanText(p, { color: false });
    expect(text).toContain('      description: "ops"\n      rules: <<-EOT\n      + node {\n      +   policy = "write"\n      + }\n      EOT\n');
  });
});

/*
 * Regression: `plan --markdown` (the PR comment reviewers read) and the drift views still showed the
 * rules as one escaped string (`"namespace \\"default\\" {\\n  policy…"`) while the text plan had a line diff.
 */
describe('multi-line strings in the Markdown plan and the drift views', () => {
  const update: Change = { kind: 'NomadAclPolicy', name: 'readonly', action: 'update', reasons: [{ code: 'differs', paths: ['rules'] }], fields: [{ path: 'rules', before: OLD, after: NEW, sensitive: false }], notes: [] };

  it('plan --markdown shows the changed lines of the rules', () => {
    const md = renderPlanMarkdown(plan([update]));
    expect(md).toContain(RULES_DIFF);
    expect(md).not.toContain('\\n');
  });

  it('plan --markdown shows a created policy\'s rules as added lines', () => {
    const md = renderPlanMarkdown(plan([{ ...update, action: 'create', reasons: [{ code: 'new' }], fields: [{ path: 'rules', before: null, after: 'node {\n  policy = "write"\n}\n', sensitive: false }] }]));
    expect(md).toContain(['  rules: <<-EOT', '+ node {', '+   policy = "write"', '+ }', '  EOT'].join('\n'));
  });

  it('drift text and drift Markdown show rules changed outside converge as a line diff', () => {
    const p = plan([], [{ kind: 'NomadAclPolicy', name: 'readonly', cause: 'outside', fields: [{ path: 'rules', before: OLD, after: NEW, sensitive: false }], detail: { code: 'changed-outside' } }]);
    const text = renderDriftText(p, { color: false });
    expect(text).toContain(['      rules: <<-EOT', '        namespace "default" {', '      -   policy = "read"', '      +   policy = "write"'].join('\n'));
    expect(text).not.toContain('\\n');
    const md = renderDriftMarkdown(p);
    expect(md).toContain(RULES_DIFF);
    expect(md).not.toContain('\\n');
  });
});
