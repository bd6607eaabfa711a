import { describe, expect, it } from 'vitest';
import type { PlanLoginTestResult } from '../../src/plan/types.js';
import { parsePlanJson, renderPlanJson } from '../../src/views/plan-json.js';
import { renderPlanMarkdown } from '../../src/views/plan-markdown.js';
import { emptyPlan } from './sample-plan.js';

/*
 * The login tests' section of the PR comment, from plan data: one line when the live side was not
 * read, and a bounded section however many tests there are.
 */
const granted = { refused: false, management: false, roles: ['developer'], policies: ['readonly'] };
const result = (name: string): PlanLoginTestResult => ({ name, at: 'login-tests.yaml:1', authMethod: 'okta', passed: true, failures: [], planned: granted, changed: false });

describe('login tests in the plan Markdown', () => {
  it('says in one line that the live side was not read', () => {
    const plan = { ...emptyPlan(), loginTests: { liveRead: false, results: [result('ada')] } };
    const md = renderPlanMarkdown(plan);
    expect(md).toContain('1 of 1 login test passes against this plan.');
    expect(md).toContain('| `ada` | `okta` | pass |');
    expect(md).toContain('The live side was not read (no Nomad ACL object read): no before → after comparison.');
    expect(md).not.toContain('Claims that change outcome');
  });

  it('keeps thousands of tests within the comment budget, counting the rest', () => {
    const results = Array.from({ length: 5000 }, (_, i) => ({ ...result(`login-test-with-a-long-name-${i}`), live: { refused: true, refusal: 'no role or policy bindings matched', management: false, roles: [], policies: [] }, changed: true }));
    const md = renderPlanMarkdown({ ...emptyPlan(), loginTests: { liveRead: true, results } });
    expect(md.length).toBeLessThanOrEqual(65_536);
    expect(md).toContain('5000 of 5000 login tests pass against this plan.');
    expect(md.match(/…and 4960 more/g)).toHaveLength(2);
    expect(md).toContain('- `login-test-with-a-long-name-0` (`okta`): refused (no role or policy bindings matched) → roles developer; policies readonly');
  });

  it('round-trips through plan --json', () => {
    const plan = { ...emptyPlan(), loginTests: { liveRead: true, results: [result('ada')] } };
    expect(parsePlanJson(renderPlanJson(plan)).loginTests).toEqual(plan.loginTests);
  });
});
