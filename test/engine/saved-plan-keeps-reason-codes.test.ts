import { describe, expect, it } from 'vitest';
import { toSavedPlan } from '../../src/engine/index.js';
import { parseSavedPlan, serializePlan } from '../../src/plan/serialize.js';
import { renderPlanText } from '../../src/views/plan-text.js';
import { gh, okta } from './fixtures.js';
import { World } from './harness.js';

/*
 * A saved plan holds reasons and notes as codes with data (plan/codes.ts), so `show` and apply read
 * back the same facts the plan had and the text view words them again; a plan saved by an older
 * converge, whose reasons and notes were sentences, still reads and shows them as written.
 */

async function saved() {
  const w = new World();
  w.env = { OKTA_SECRET: 'shh-shh-shh' };
  return toSavedPlan(await w.plan([okta(), gh()]), { paths: ['/m'], targets: [] });
}

describe('saved plans and reason codes', () => {
  it('round-trips the codes and their data, and the text view says the same from either', async () => {
    const plan = await saved();
    expect(plan.changes.some((c) => (c.reasons ?? []).length > 0 && c.notes.length > 0)).toBe(true);
    const back = parseSavedPlan(serializePlan(plan), 'p.json');
    expect(back.changes.map((c) => [c.reasons, c.notes])).toEqual(plan.changes.map((c) => [c.reasons, c.notes]));
    expect(renderPlanText(back, { color: false })).toBe(renderPlanText(plan, { color: false }));
    expect(renderPlanText(back, { color: false })).toContain('# new in the manifests');
  });

  it('reads a plan saved by an older converge (sentences) and shows them as written', async () => {
    const data = JSON.parse(serializePlan(await saved())) as { changes: Record<string, unknown>[] };
    for (const c of data.changes) {
      delete c.reasons;
      c.reason = 'new in the manifests (old wording)';
      c.notes = ['an old note'];
    }
    const back = parseSavedPlan(JSON.stringify(data), 'old.json');
    expect(back.changes[0]).toMatchObject({ reasons: [{ code: 'legacy-text', text: 'new in the manifests (old wording)' }], notes: [{ code: 'legacy-text', text: 'an old note' }] });
    expect(back.changes[0]).not.toHaveProperty('reason');
    const text = renderPlanText(back, { color: false });
    expect(text).toContain('# new in the manifests (old wording)');
    expect(text).toContain('note: an old note');
  });

  it('refuses notes that are neither sentences nor codes', async () => {
    const data = JSON.parse(serializePlan(await saved())) as { changes: Record<string, unknown>[] };
    const first = data.changes[0];
    if (first) first.notes = [{ nocode: true }];
    expect(() => parseSavedPlan(JSON.stringify(data), 'bad.json')).toThrow(expect.objectContaining({ code: 'plan.invalid', message: expect.stringContaining('changes[0].notes') }));
  });
});
