import { describe, expect, it } from 'vitest';
import { findStaleness, toSavedPlan } from '../../src/engine/index.js';
import { parseSavedPlan, serializePlan } from '../../src/plan/serialize.js';
import type { SavedPlan } from '../../src/plan/types.js';
import { CANARY, gh, okta } from './fixtures.js';
import { World } from './harness.js';

function world(): World {
  const w = new World();
  w.env = { OKTA_SECRET: CANARY };
  return w;
}

const META = { paths: ['/m/auth.yaml'], targets: [] };

/** Save → serialise → parse, as `plan --out` then `apply --plan` do. */
function roundTrip(saved: SavedPlan): SavedPlan {
  return parseSavedPlan(serializePlan(saved), 'plan.json');
}

describe('findStaleness', () => {
  it('a fresh plan of the same world is not stale', async () => {
    const w = world();
    await w.converge([okta(), gh()]);
    const saved = roundTrip(toSavedPlan(await w.plan([okta(), gh({ maxTokenTtl: '2h' })]), META));
    expect(findStaleness(saved, await w.plan([okta(), gh({ maxTokenTtl: '2h' })]))).toEqual([]);
  });

  it('names the object and the field that moved since the plan', async () => {
    const w = world();
    await w.converge([okta(), gh()]);
    const saved = roundTrip(toSavedPlan(await w.plan([okta(), gh({ tokenLocality: 'global' })]), META));
    const live = w.nomad.live.get('NomadAuthMethod/gh');
    if (!live) throw new Error('no gh');
    live.fields.maxTokenTtl = '2h';
    const findings = findStaleness(saved, await w.plan([okta(), gh({ tokenLocality: 'global' })]));
    expect(findings).toEqual([
      { kind: 'NomadAuthMethod', name: 'gh', field: 'maxTokenTtl', message: 'changed since the plan was made: "30m" → "2h"' },
    ]);
  });

  it('reports objects that appeared or disappeared', async () => {
    const w = world();
    await w.converge([gh()]);
    const saved = roundTrip(toSavedPlan(await w.plan([okta(), gh()]), META));
    w.nomad.live.delete('NomadAuthMethod/gh');
    w.nomad.live.set('NomadAuthMethod/okta', { id: 'okta', fields: {}, secrets: {} });
    const findings = findStaleness(saved, await w.plan([okta(), gh()]));
    expect(findings.map((f) => `${f.name}: ${f.message}`)).toEqual([
      'gh: disappeared since the plan was made (deleted outside converge?)',
      'okta: appeared since the plan was made (created outside converge?)',
    ]);
  });

  it('reports a secret whose digest changed, naming the field, never the value', async () => {
    const w = world();
    await w.converge([okta()]);
    const saved = roundTrip(toSavedPlan(await w.plan([okta()]), META));
    w.env.OKTA_SECRET = 'rotated-' + CANARY;
    const findings = findStaleness(saved, await w.plan([okta()]));
    expect(findings).toEqual([
      { kind: 'NomadAuthMethod', name: 'okta', field: 'config.oidcClientSecret', message: 'secret value changed since the plan was made' },
    ]);
    expect(JSON.stringify(findings)).not.toContain(CANARY);
  });

  it('reports changes that differ when the manifests moved', async () => {
    const w = world();
    await w.converge([gh()]);
    const saved = roundTrip(toSavedPlan(await w.plan([gh({ maxTokenTtl: '2h' })]), META));
    const findings = findStaleness(saved, await w.plan([gh({ maxTokenTtl: '3h' }), okta()]));
    expect(findings).toEqual([
      { kind: 'NomadAuthMethod', name: 'gh', field: 'maxTokenTtl', message: 'the planned update of this field differs from the saved plan' },
      { kind: 'NomadAuthMethod', name: 'okta', field: 'config.oidcClientSecret', message: 'secret added since the plan was made' },
    ]);
  });

  it('a plan made before the state existed stays valid once the state got its salt', async () => {
    const w = world();
    const saved = roundTrip(toSavedPlan(await w.plan([okta()]), META));
    // The state file is created by the apply with another random salt: digests cannot match.
    w.backend.doc = { ...w.backend.doc, salt: 'another-salt' };
    expect(findStaleness(saved, await w.plan([okta()]))).toEqual([]);
  });

  it('a replaced state makes secrets uncheckable, and says so', async () => {
    const w = world();
    await w.converge([okta()]);
    const saved = roundTrip(toSavedPlan(await w.plan([okta()]), META));
    w.backend.doc = { ...w.backend.doc, salt: 'another-salt' };
    const findings = findStaleness(saved, await w.plan([okta()]));
    expect(findings.map((f) => f.message)).toContain('cannot check the secret is unchanged: the state was replaced since the plan was made');
  });

  it('the saved plan holds digests and references, never the secret', async () => {
    const w = world();
    const text = serializePlan(toSavedPlan(await w.plan([okta()]), META));
    expect(text).not.toContain(CANARY);
    expect(text).toContain('"NomadAuthMethod/okta#config.oidcClientSecret": "scrypt:N=4096,r=8,p=1:');
  });
});
