import { afterEach, describe, expect, it } from 'vitest';
import type { HostileBody } from './recording-proxy.js';
import { checkConsistency, createRequests, duplicateCreates, FAST, liveInventory, openWorld, readLocalState, type Shape, type World } from './world.js';

/*
 * Bounded answers in the middle of an apply, through the built CLI: the service acts on a write, then its
 * answer is cut off, never ends, or grows past the size cap (recording proxy, HostileBody). Before bodies were
 * bounded, the endless and oversize answers held the apply until it was killed (the body was read whole, with
 * only an idle timeout). Now the attempt ends at the limit, the apply says which address broke which limit,
 * the state records what was done, and against the healthy services (after a rerun where the apply stopped)
 * the plan is empty, with no duplicate create and no orphan.
 */
const SHAPE: Shape = { authMethods: 3, bindingRules: 2, modules: 1, workspacesPerModule: 2 };
const LIMITS = { CONVERGE_HTTP_MAX_BODY: '64KB', CONVERGE_HTTP_DEADLINE: '3s' };

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

interface Case {
  name: string;
  service: 'nomad' | 'tfe';
  rule: HostileBody;
  /** What the failed apply must say besides the proxy's address; undefined: the apply recovers by itself. */
  says: RegExp | undefined;
}

const CASES: Case[] = [
  {
    name: 'an auth-method write answered with a body past the size cap',
    service: 'nomad',
    rule: { match: (m, p) => m === 'POST' && p === '/v1/acl/auth-method/am-01', mode: 'oversize' },
    says: /body larger than 64 KB/,
  },
  {
    name: 'an auth-method write answered with a body that never ends',
    service: 'nomad',
    rule: { match: (m, p) => m === 'POST' && p === '/v1/acl/auth-method/am-02', mode: 'endless' },
    says: /did not finish its answer within 3 s/,
  },
  {
    name: 'a binding-rule create answered with a body that never ends',
    service: 'nomad',
    rule: { match: (m, p) => m === 'POST' && p === '/v1/acl/binding-rule', mode: 'endless' },
    says: undefined,
  },
  {
    name: 'a workspace create answered with a body that never ends',
    service: 'tfe',
    rule: { match: (m, p) => m === 'POST' && /^\/api\/v2\/no-code-modules\/[^/]+\/workspaces$/.test(p), mode: 'endless' },
    says: undefined,
  },
  {
    name: 'a no-code module create whose answer is cut off',
    service: 'tfe',
    rule: { match: (m, p) => m === 'POST' && /^\/api\/v2\/organizations\/acme\/no-code-modules$/.test(p), mode: 'cut' },
    says: undefined,
  },
];

describe('an answer cut off, endless or past the cap in the middle of an apply', () => {
  it.each(CASES)('$name: the apply ends, the state holds what was done, then it converges', async (c) => {
    const w = (world = await openWorld({ seed: 11 }));
    await w.writeShape(SHAPE);
    const proxy = c.service === 'nomad' ? w.nomadProxy : w.tfeProxy;
    proxy.setHostileBody(c.rule);
    const first = await w.cli(['apply', '--auto-approve', ...FAST], LIMITS);
    const out = first.stdout + first.stderr;
    // The proxy misbehaved after the service had acted.
    expect([...w.nomadProxy.log, ...w.tfeProxy.log].filter((r) => r.hostile === c.rule.mode).map((r) => r.status)).toEqual([expect.any(Number)]);
    if (c.says) {
      expect(first.code, out).toBe(1);
      expect(out).toContain(proxy.url);
      expect(out).toMatch(c.says);
    } else {
      // A create is looked up by its natural key: found, the apply goes on.
      expect(first.code, out).toBe(0);
    }
    console.log(`${c.name}: exit ${first.code}; ${out.split('\n').filter((l) => l.includes(proxy.url) || /Apply complete/.test(l)).join(' | ')}`);

    // What was done is recorded: every record names a live object, and at most the object whose
    // answer was lost is live without a record.
    const afterFirst = checkConsistency(await liveInventory(w), await readLocalState(w), SHAPE);
    expect(afterFirst.liveDuplicates).toEqual([]);
    expect(afterFirst.stale.filter((s) => s.includes('is in state but not live'))).toEqual([]);
    expect(afterFirst.orphans.length).toBeLessThanOrEqual(1);

    proxy.setHostileBody(undefined);
    // An apply that stopped is run again; one that recovered by itself has nothing left to do, which the plan
    // below shows without a rerun (one process fewer per case, the same proof).
    if (c.says) {
      const rerun = await w.cli(['apply', '--auto-approve', ...FAST], LIMITS);
      expect(rerun.code, rerun.stdout + rerun.stderr).toBe(0);
    }
    const plan = await w.cli(['plan', '--detailed-exitcode']);
    expect(plan.code, plan.stdout).toBe(0);
    expect(duplicateCreates(createRequests(w.nomadProxy.log, w.tfeProxy.log))).toEqual([]);
    expect(checkConsistency(await liveInventory(w), await readLocalState(w), SHAPE)).toEqual({ orphans: [], stale: [], liveDuplicates: [] });
  }, 90_000);
});
