import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AnyDesired } from '../../src/model/desired.js';
import { hasChanges } from '../../src/plan/types.js';
import { desired } from './memory-provider.js';
import { World } from './harness.js';

/*
 * Property: for any desired set, plan → apply (memory provider) → plan is a no-op, starting from
 * any earlier converged set (so creates, updates and deletes all get exercised).
 */

const name = fc.constantFrom('a', 'b', 'c', 'd');
const method = fc.record({
  name,
  ttl: fc.constantFrom('30m', '1h', '2h'),
  locality: fc.constantFrom('local', 'global'),
  secret: fc.option(fc.constantFrom('S1', 'S2'), { nil: undefined }),
  claims: fc.dictionary(fc.constantFrom('email', 'groups', 'sub'), fc.constantFrom('x', 'y'), { maxKeys: 3 }),
});
const ruleArb = fc.record({ name, method: name, bindName: fc.constantFrom('ops', 'dev') });
const moduleArb = fc.record({ name, pin: fc.constantFrom('1.3.0', '1.4.0') });
const wsArb = fc.record({ name, module: name, mode: fc.constantFrom('remote', 'agent') });

const world = fc.record({
  methods: fc.uniqueArray(method, { selector: (m) => m.name, maxLength: 4 }),
  rules: fc.uniqueArray(ruleArb, { selector: (r) => r.name, maxLength: 4 }),
  modules: fc.uniqueArray(moduleArb, { selector: (m) => m.name, maxLength: 3 }),
  workspaces: fc.uniqueArray(wsArb, { selector: (w) => w.name, maxLength: 3 }),
});

type WorldSpec = typeof world extends fc.Arbitrary<infer T> ? T : never;

function objects(s: WorldSpec): AnyDesired[] {
  const out: AnyDesired[] = [];
  for (const m of s.methods) {
    const config: Record<string, unknown> = { claimMappings: m.claims };
    if (m.secret) config.oidcClientSecret = { fromEnv: m.secret };
    out.push(desired('NomadAuthMethod', m.name, { type: 'OIDC', tokenLocality: m.locality, maxTokenTtl: m.ttl, config }));
  }
  for (const r of s.rules) out.push(desired('NomadBindingRule', r.name, { authMethod: r.method, bindType: 'role', bindName: r.bindName }));
  for (const m of s.modules) out.push(desired('NoCodeModule', m.name, { registryModule: `acme/${m.name}/aws`, versionPin: m.pin }));
  for (const w of s.workspaces) out.push(desired('NoCodeWorkspace', w.name, { module: w.module, executionMode: w.mode }));
  return out;
}

describe('plan → apply → plan', () => {
  it('is a no-op afterwards, from any starting point', async () => {
    await fc.assert(
      fc.asyncProperty(world, world, async (first, second) => {
        const w = new World();
        w.env = { S1: 'secret-one', S2: 'secret-two' };
        await w.converge(objects(first));
        const result = await w.converge(objects(second));
        expect(result.counts.failed + result.counts.skipped).toBe(0);
        const again = await w.plan(objects(second));
        expect(hasChanges(again.plan)).toBe(false);
        expect(again.plan.drift).toEqual([]);
        expect(w.backend.doc.records.map((r) => `${r.kind}/${r.name}`).sort()).toEqual(objects(second).map((o) => `${o.kind}/${o.name}`).sort());
      }),
      { numRuns: 60 },
    );
  });
});
