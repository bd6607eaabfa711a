import { describe, expect, it } from 'vitest';
import { summarize, type Change, type Plan } from '../../src/plan/types.js';
import type { Note } from '../../src/plan/codes.js';
import { parsePlanJson, planJsonObject, renderPlanJson } from '../../src/views/plan-json.js';
import { renderPlanMarkdown } from '../../src/views/plan-markdown.js';
import { renderPlanText } from '../../src/views/plan-text.js';

/* Adoptions (decisions.md §9) in every plan view: said, never counted as changes. */

const RULE_NOTE: Note = { code: 'adopted-rule', id: '2b6c' };
const ADOPT_MATCHES: Note = { code: 'adopt-matches' };

function plan(extra: Change[] = []): Plan {
  const changes: Change[] = [
    ...extra,
    { kind: 'NomadAuthMethod', name: 'gh', id: 'gh', action: 'no-op', reasons: [{ code: 'adopt' }], fields: [], notes: [ADOPT_MATCHES], adopt: true },
    { kind: 'NomadBindingRule', name: 'dev', id: '2b6c', action: 'no-op', reasons: [{ code: 'adopt' }], fields: [], notes: [RULE_NOTE, ADOPT_MATCHES], adopt: true },
    { kind: 'NomadAuthMethod', name: 'owned', id: 'owned', action: 'no-op', fields: [], notes: [] },
  ];
  return { formatVersion: '1.0', createdAt: '2026-01-01T00:00:00.000Z', changes, drift: [], diagnostics: [], summary: summarize(changes) };
}

describe('plan views with adoptions', () => {
  it('text: "No changes." plus the adopt line, each adopted object with its provider notes; the same from --json', () => {
    const p = plan();
    const text = renderPlanText(p, { color: false });
    expect(text).toBe(
      [
        'converge will record these existing objects as owned (they match the manifests; nothing is sent):',
        '',
        '  = NomadAuthMethod/gh',
        '  = NomadBindingRule/dev (id 2b6c)',
        "      note: adopted existing rule 2b6c: matched by auth method, selector, bind type and bind name",
        '',
        'No changes. Live state matches the manifests.',
        '2 existing objects match the manifests and will be recorded as owned by the next apply (nothing is sent for them).',
        '',
      ].join('\n'),
    );
    expect(renderPlanText(parsePlanJson(renderPlanJson(p)), { color: false })).toBe(text);
  });

  it('json: adoptions kept with adopt: true, other no-ops left out, summary unchanged', () => {
    const json = planJsonObject(plan()) as { changes: Change[]; summary: unknown };
    expect(json.changes.map((c) => [c.name, c.action, c.adopt])).toEqual([
      ['gh', 'no-op', true],
      ['dev', 'no-op', true],
    ]);
    expect(json.summary).toEqual({ create: 0, update: 0, delete: 0, upgrade: 0 });
  });

  it('with a real change: the summary counts it and the adopt line follows', () => {
    const text = renderPlanText(plan([{ kind: 'NomadAuthMethod', name: 'new', action: 'create', reasons: [{ code: 'new' }], fields: [], notes: [] }]), { color: false });
    expect(text).toContain('Plan: 1 to create, 0 to update, 0 to delete, 0 to upgrade.\n2 existing objects match the manifests');
  });

  it('markdown: the line names the objects', () => {
    const md = renderPlanMarkdown(plan());
    expect(md).toContain('No changes. Live state matches the manifests.');
    expect(md).toContain('2 existing objects match the manifests and will be recorded as owned by the next apply (nothing is sent for them): `NomadAuthMethod/gh`, `NomadBindingRule/dev`.');
    expect(md).not.toContain('### Changes');
  });

  it('a plan without adoptions says nothing about them', () => {
    const p = plan();
    p.changes = p.changes.filter((c) => c.adopt !== true);
    expect(renderPlanText(p, { color: false })).toBe('No changes. Live state matches the manifests.\n');
    expect(renderPlanMarkdown(p)).not.toContain('recorded as owned');
  });
});
