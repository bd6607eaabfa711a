import { describe, expect, it } from 'vitest';
import { summarize, type DriftItem, type Plan } from '../../src/plan/types.js';
import { renderDriftMarkdown } from '../../src/views/drift.js';
import { emptyPlan } from './sample-plan.js';

/** `drift --markdown` is posted as a GitHub issue body (examples/ci/github-actions/drift.yml). */

function driftPlan(n: number, cause: DriftItem['cause'] = 'outside'): Plan {
  const drift: DriftItem[] = Array.from({ length: n }, (_, i) => ({
    kind: 'NomadAuthMethod',
    name: `method-${String(i).padStart(4, '0')}`,
    cause,
    detail: { code: 'changed-outside' },
    fields: Array.from({ length: 4 }, (_, j) => ({ path: `config.claimMappings.claim${j}`, before: 'x'.repeat(30), after: 'y'.repeat(30), sensitive: false })),
  }));
  return { formatVersion: '1.0', createdAt: '', changes: [], drift, diagnostics: [], summary: summarize([]) };
}

describe('drift markdown', () => {
  it('collapses each drifted object into its own <details> with a diff', () => {
    const md = renderDriftMarkdown(driftPlan(3));
    expect(md.match(/<details>/g)).toHaveLength(3);
    expect(md.match(/<\/details>/g)).toHaveLength(3);
    expect(md).toContain('<summary><code>! NomadAuthMethod/method-0000</code> 4 fields</summary>');
    expect(md).toContain('```diff\n- config.claimMappings.claim0: "' + 'x'.repeat(30) + '"\n+ config.claimMappings.claim0: "' + 'y'.repeat(30) + '"');
    expect(md).toContain('| 3 | 0 | 0 | 0 |');
    expect(md).not.toContain('[!CAUTION]');
  });

  it('never exceeds 65 536 characters: cuts objects with a note, keeps the banner and the counts', () => {
    const plan = driftPlan(3000, 'missing');
    const md = renderDriftMarkdown(plan);
    expect(md.length).toBeLessThanOrEqual(65_536);
    expect(md).toContain('> [!CAUTION]');
    expect(md).toContain('**3000 objects converge owns are gone from the live service**');
    expect(md).toContain('and 2980 more');
    expect(md).toContain('| 0 | 0 | 3000 | 0 |');
    expect(md).toMatch(/> Showing \d+ of 3000 drifted objects: the rest was cut to keep this under 65536 characters/);
    expect(md.match(/<details>/g)?.length).toBe(md.match(/<\/details>/g)?.length);
    expect(renderDriftMarkdown(driftPlan(40), { maxLength: 2000 }).length).toBeLessThanOrEqual(2000);
  });

  it('banners the deletions the manifests would make', () => {
    const plan = emptyPlan();
    plan.changes = [{ kind: 'NoCodeWorkspace', name: 'old', action: 'delete', fields: [], notes: [] }];
    plan.summary = summarize(plan.changes);
    expect(renderDriftMarkdown(plan)).toContain('> Applying the manifests now would **delete 1 object**: `NoCodeWorkspace/old`.');
  });

  it('masks sensitive values', () => {
    const plan = driftPlan(1);
    const item = plan.drift[0];
    if (!item) throw new Error('no item');
    item.fields = [{ path: 'config.oidcClientSecret', before: 'digest-aaaa', after: 'digest-bbbb', sensitive: true }];
    const md = renderDriftMarkdown(plan);
    expect(md).toContain('- config.oidcClientSecret: (sensitive)');
    expect(md).not.toContain('digest-');
  });

  it('says so when there is no drift', () => {
    expect(renderDriftMarkdown(emptyPlan())).toBe('## converge drift\n\nNo drift. Live state matches what converge last applied.\n');
  });
});
