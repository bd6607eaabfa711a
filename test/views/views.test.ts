import { describe, expect, it } from 'vitest';
import { toSavedPlan } from '../../src/engine/index.js';
import { parseSavedPlan, serializePlan } from '../../src/plan/serialize.js';
import { summarize, type Change, type Plan } from '../../src/plan/types.js';
import { renderApplyResultText } from '../../src/views/apply-result.js';
import { renderDriftJson, renderDriftMarkdown, renderDriftText } from '../../src/views/drift.js';
import { parsePlanJson, renderPlanJson } from '../../src/views/plan-json.js';
import { renderPlanMarkdown } from '../../src/views/plan-markdown.js';
import { renderPlanText } from '../../src/views/plan-text.js';
import { formatFieldLine, presentFields, upgradeLine } from '../../src/views/format.js';
import { CANARY, okta, gh } from '../engine/fixtures.js';
import { World } from '../engine/harness.js';
import { emptyPlan, samplePlan, sampleResult } from './sample-plan.js';

// eslint-disable-next-line no-control-regex -- matching ANSI escapes is the point
const ANSI = /\u001b\[[0-9;]*m/g;

describe('plan views (golden files)', () => {
  it('text', async () => {
    await expect(renderPlanText(samplePlan(), { color: false })).toMatchFileSnapshot('__golden__/plan.txt');
    await expect(renderPlanText(emptyPlan(), { color: false })).toMatchFileSnapshot('__golden__/plan-empty.txt');
  });

  it('json', async () => {
    await expect(renderPlanJson(samplePlan())).toMatchFileSnapshot('__golden__/plan.json');
  });

  it('markdown', async () => {
    await expect(renderPlanMarkdown(samplePlan())).toMatchFileSnapshot('__golden__/plan.md');
    await expect(renderPlanMarkdown(emptyPlan(), { title: 'converge apply' })).toMatchFileSnapshot('__golden__/plan-empty.md');
  });

  it('drift text, markdown and json', async () => {
    await expect(renderDriftText(samplePlan(), { color: false })).toMatchFileSnapshot('__golden__/drift.txt');
    await expect(renderDriftMarkdown(samplePlan())).toMatchFileSnapshot('__golden__/drift.md');
    await expect(renderDriftJson(samplePlan())).toMatchFileSnapshot('__golden__/drift.json');
    expect(renderDriftText(emptyPlan(), { color: false })).toBe('No drift. Live state matches what converge last applied.\n');
  });

  it('apply result', async () => {
    await expect(renderApplyResultText(sampleResult(), samplePlan())).toMatchFileSnapshot('__golden__/apply-result.txt');
    // Regression: "ok  NomadAuthMethod/okta: created: created" said the verb twice.
    const clean = renderApplyResultText(
      { outcomes: [{ kind: 'NomadAuthMethod', name: 'okta', action: 'create', status: 'succeeded', detail: { code: 'done' } }], counts: { succeeded: 1, failed: 0, skipped: 0, awaiting: 0 } },
      samplePlan(),
    );
    expect(clean).toBe('  + NomadAuthMethod/okta  created\n\nApply complete: 1 succeeded.\n');
    const updated = renderApplyResultText(
      { outcomes: [{ kind: 'NomadAuthMethod', name: 'gh', action: 'update', status: 'succeeded', detail: { code: 'done' } }], counts: { succeeded: 1, failed: 0, skipped: 0, awaiting: 0 } },
      samplePlan(),
    );
    expect(updated).toContain('  ~ NomadAuthMethod/gh  updated (config.claimMappings.email, config.claimMappings.mail, maxTokenTtl)\n');
    // Without the plan the line still says what happened, once.
    expect(renderApplyResultText({ outcomes: [{ kind: 'NomadBindingRule', name: 'r', action: 'create', status: 'succeeded', detail: { code: 'done-id', object: 'rule', id: '42' } }], counts: { succeeded: 1, failed: 0, skipped: 0, awaiting: 0 } })).toBe(
      '  + NomadBindingRule/r  created rule 42\n\nApply complete: 1 succeeded.\n',
    );
  });
});

describe('plan text', () => {
  it('renders identically from the plan parsed back from --json and from a saved plan', () => {
    const plan = samplePlan();
    const text = renderPlanText(plan, { color: false });
    expect(renderPlanText(parsePlanJson(renderPlanJson(plan)), { color: false })).toBe(text);
    const saved = parseSavedPlan(serializePlan({ ...plan, saved: { paths: [], targets: [], reads: [], secretDigests: {} } }), 'p.json');
    expect(renderPlanText(saved, { color: false })).toBe(text);
  });

  it('colours only when asked; colour changes nothing else', () => {
    const plain = renderPlanText(samplePlan(), { color: false });
    const coloured = renderPlanText(samplePlan(), { color: true });
    expect(plain).not.toMatch(ANSI);
    expect(coloured).toMatch(ANSI);
    expect(coloured.replace(ANSI, '')).toBe(plain);
    expect(renderDriftText(samplePlan(), { color: true }).replace(ANSI, '')).toBe(renderDriftText(samplePlan(), { color: false }));
  });

  it('closes with the summary line', () => {
    expect(renderPlanText(samplePlan(), { color: false })).toMatch(/Plan: 1 to create, 3 to update, 2 to delete, 1 to upgrade\.\n$/);
    expect(renderPlanText(emptyPlan(), { color: false })).toBe('No changes. Live state matches the manifests.\n');
  });
});

describe('plan json', () => {
  it('has exactly the documented top-level keys and leaves no-ops out', () => {
    const data = JSON.parse(renderPlanJson(samplePlan())) as Record<string, unknown> & { changes: Change[] };
    expect(Object.keys(data)).toEqual(['formatVersion', 'changes', 'summary', 'drift', 'diagnostics']);
    expect(data.changes.map((c) => c.action)).not.toContain('no-op');
    expect(data.changes[0]).toEqual(expect.objectContaining({ kind: 'NoCodeWorkspace', name: 'old-ws', action: 'delete', deletion: 'destroy' }));
  });
});

function bigPlan(n: number): Plan {
  const changes: Change[] = Array.from({ length: n }, (_, i) => ({
    kind: 'NomadAuthMethod',
    name: `method-${String(i).padStart(4, '0')}`,
    action: i % 10 === 0 ? 'delete' : 'update',
    reasons: [{ code: 'differs', paths: ['config.claimMappings.claim0'] }],
    fields: Array.from({ length: 5 }, (_, j) => ({ path: `config.claimMappings.claim${j}`, before: 'x'.repeat(20), after: 'y'.repeat(20), sensitive: false })),
    notes: [],
  }));
  return { formatVersion: '1.0', createdAt: '', changes, drift: [], diagnostics: [], summary: summarize(changes) };
}

describe('plan markdown', () => {
  it('never exceeds 65 536 characters: cuts the per-object section with a note, keeps summary and banner', () => {
    const plan = bigPlan(2000);
    const md = renderPlanMarkdown(plan);
    expect(md.length).toBeLessThanOrEqual(65_536);
    expect(md).toContain('| 0 | 1800 | 200 | 0 |');
    expect(md).toContain('> [!CAUTION]');
    expect(md).toContain('deletes 200 objects');
    expect(md).toMatch(/> Showing \d+ of 2000 changed objects: the rest was cut to keep this comment under 65536 characters/);
    expect(md.match(/<details>/g)?.length).toBeLessThan(2000);
    expect(md.match(/<details>/g)?.length).toBe(md.match(/<\/details>/g)?.length);
  });

  it('is not cut when it fits, and respects a smaller limit', () => {
    expect(renderPlanMarkdown(bigPlan(3))).not.toContain('[!NOTE]');
    const small = renderPlanMarkdown(bigPlan(50), { maxLength: 3000 });
    expect(small.length).toBeLessThanOrEqual(3000);
    expect(small).toContain('| Create | Update | Delete | Upgrade |');
    expect(renderPlanMarkdown(bigPlan(50), { maxLength: 100 }).length).toBeLessThanOrEqual(100);
  });

  it('fences values holding backticks safely', () => {
    const plan = bigPlan(1);
    const first = plan.changes[0];
    if (!first) throw new Error('no change');
    first.fields = [{ path: 'description', before: null, after: '```\n</details>', sensitive: false }];
    const md = renderPlanMarkdown(plan);
    expect(md).toContain('````diff');
  });
});

describe('secrets never reach a rendered or saved plan', () => {
  it('holds for every view of an engine-made plan with a rotated secret', async () => {
    const w = new World();
    w.env = { OKTA_SECRET: CANARY };
    await w.converge([okta(), gh()]);
    w.env.OKTA_SECRET = `${CANARY}-rotated`;
    const run = await w.plan([okta({ maxTokenTtl: '2h' }), gh()]);
    expect(run.plan.summary.update).toBe(1);
    const outputs = [
      renderPlanText(run.plan, { color: false }),
      renderPlanText(run.plan, { color: true }),
      renderPlanJson(run.plan),
      renderPlanMarkdown(run.plan),
      renderDriftText(run.plan, { color: false }),
      renderDriftMarkdown(run.plan),
      renderDriftJson(run.plan),
      serializePlan(toSavedPlan(run, { paths: [], targets: [] })),
      JSON.stringify(w.backend.doc),
    ];
    for (const out of outputs) expect(out).not.toContain(CANARY);
    expect(renderPlanText(run.plan, { color: false })).toContain('config.oidcClientSecret: (sensitive) → (sensitive)');
  });
});

describe('fields for people', () => {
  it('folds a variable’s secret value into its one line, shows attributes only when set', () => {
    const lines = presentFields([
      { path: 'variables.terraform.db', before: null, after: { description: '', hcl: false, sensitive: true }, sensitive: false },
      { path: 'variables.terraform.db.value', before: null, after: '(sensitive)', sensitive: true },
      { path: 'variables.terraform.old', before: { value: 'x', description: 'gone soon', hcl: true, sensitive: false }, after: null, sensitive: false },
      { path: 'variables.terraform.token.value', before: '(sensitive)', after: '(sensitive)', sensitive: true },
      { path: 'config.claimMappings', before: null, after: { value: 'v', sensitive: 'no' }, sensitive: false },
      { path: 'variables.env.LEAK', before: null, after: { value: CANARY, hcl: false, sensitive: true }, sensitive: false },
    ]).map(formatFieldLine);
    expect(lines).toEqual([
      'variables.terraform.db: (absent) → (sensitive)',
      'variables.terraform.old: "x" (description "gone soon", hcl) → (absent)',
      'variables.terraform.token.value: (sensitive) → (sensitive)',
      // A claim mapping that happens to have a `value` claim is not a variable: shown as JSON.
      'config.claimMappings: (absent) → {"value":"v","sensitive":"no"}',
      // Defence in depth: a record marked sensitive never shows a value.
      'variables.env.LEAK: (absent) → (sensitive)',
    ]);
  });

  it('an upgrade says its version move once', () => {
    const field = { path: 'moduleVersion', before: '1.4.0', after: '1.5.0', sensitive: false };
    expect(upgradeLine({ upgrade: { from: '1.4.0', to: '1.5.0' }, fields: [field] })).toBeUndefined();
    expect(upgradeLine({ upgrade: { from: '1.4.0', to: '1.5.0' }, fields: [] })).toBe('version: 1.4.0 → 1.5.0');
    expect(upgradeLine({ upgrade: { from: '1.4.0', to: '1.4.0' }, fields: [] })).toBe('version: 1.4.0 (unchanged)');
  });

  it('plan and apply leave out pending drift; converge drift keeps it', () => {
    const plan = samplePlan();
    expect(renderPlanText(plan, { color: false })).not.toContain('Pending');
    expect(renderPlanMarkdown(plan)).not.toContain('pending');
    expect(renderDriftText(plan, { color: false })).toContain('Pending: the manifests changed, live did not');
    const onlyPending = { ...plan, drift: plan.drift.filter((d) => d.cause === 'pending') };
    expect(renderPlanText(onlyPending, { color: false })).not.toContain('Drift since the last apply');
    expect(renderPlanMarkdown(onlyPending)).not.toContain('Drift since the last apply');
  });
});

