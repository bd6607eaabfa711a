import { describe, expect, it } from 'vitest';
import { findStaleness, toSavedPlan } from '../../src/engine/index.js';
import type { ApplyIntent } from '../../src/plan/intent.js';
import { parseSavedPlan, serializePlan } from '../../src/plan/serialize.js';
import type { Change } from '../../src/plan/types.js';
import { CANARY, gh, okta } from './fixtures.js';
import { World } from './harness.js';

/*
 * A saved plan carries what apply sends: a fresh plan that would send something else
 * (a variable recreated outside converge has another id) is stale even when every field matches.
 * A plan saved before changes carried intents is compared without them.
 */

const META = { paths: ['/m/auth.yaml'], targets: [] };

const intent = (id: string): ApplyIntent => ({
  type: 'tfe.no-code-workspace.v1',
  variables: [{ op: 'update', id, variable: { key: 'region', category: 'terraform', description: '', hcl: false, sensitive: false, value: { text: 'eu' } } }],
});

function ghChange(changes: Change[]): Change {
  const c = changes.find((x) => x.name === 'gh' && x.action !== 'no-op');
  if (!c) throw new Error('no change of gh');
  return c;
}

async function planned() {
  const w = new World();
  w.env = { OKTA_SECRET: CANARY };
  await w.converge([okta(), gh()]);
  return { saved: toSavedPlan(await w.plan([okta(), gh({ maxTokenTtl: '2h' })]), META), fresh: await w.plan([okta(), gh({ maxTokenTtl: '2h' })]) };
}

describe('staleness and the intent a saved plan carries', () => {
  it('an intent that differs from the one planned now makes the saved plan stale', async () => {
    const { saved, fresh } = await planned();
    ghChange(saved.changes).intent = intent('var-saved');
    ghChange(fresh.plan.changes).intent = intent('var-now');
    const findings = findStaleness(parseSavedPlan(serializePlan(saved), 'plan.json'), fresh);
    expect(findings.map((f) => `${f.kind}/${f.name}: ${f.message}`)).toEqual([
      'NomadAuthMethod/gh: the planned update differs from the saved plan (what it would send, e.g. a remote id, moved)',
    ]);
  });

  it('the same intent is not stale; a plan saved without intents is compared without them', async () => {
    const same = await planned();
    ghChange(same.saved.changes).intent = intent('var-1');
    ghChange(same.fresh.plan.changes).intent = intent('var-1');
    expect(findStaleness(parseSavedPlan(serializePlan(same.saved), 'plan.json'), same.fresh)).toEqual([]);
    const older = await planned();
    ghChange(older.fresh.plan.changes).intent = intent('var-1');
    expect(findStaleness(parseSavedPlan(serializePlan(older.saved), 'plan.json'), older.fresh)).toEqual([]);
  });

  it('a saved plan whose intent is not an object is refused as not a saved plan', async () => {
    const { saved } = await planned();
    const text = serializePlan(saved).replace('"action": "update"', '"action": "update",\n      "intent": "PATCH"');
    expect(() => parseSavedPlan(text, 'plan.json')).toThrow(/changes\[\d+\]\.intent is not an apply intent/);
  });
});
