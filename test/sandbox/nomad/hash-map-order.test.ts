import { afterEach, describe, expect, it } from 'vitest';
import { oidc, startSim, type Sim } from './helpers.js';

/*
 * docs/reference/nomad-api.md §12: Nomad's Hash walks ClaimMappings, ListClaimMappings and ExtraHeaders in
 * Go's random map order, so the same content can get a different Hash. `randomMapOrder` models that.
 */
let sim: Sim | undefined;
afterEach(async () => {
  await sim?.s.stop();
  sim = undefined;
});

const CLAIMS = { email: 'email', name: 'name', sub: 'sub', groups: 'groups' };

async function hashesOfRewrites(opts: { randomMapOrder: boolean }, times: number): Promise<string[]> {
  sim = await startSim(opts);
  const hashes: string[] = [];
  for (let i = 0; i < times; i++) {
    const r = await sim.m.post('/v1/acl/auth-method/okta', oidc('okta', {}, { ClaimMappings: CLAIMS }));
    expect(r.status).toBe(200);
    hashes.push(r.json<{ Hash: string }>().Hash);
  }
  return hashes;
}

describe('Hash and Go map order (docs/reference/nomad-api.md §12)', () => {
  it('by default, equal content always has an equal Hash', async () => {
    expect(new Set(await hashesOfRewrites({ randomMapOrder: false }, 6)).size).toBe(1);
  });

  it('with randomMapOrder, rewriting the same content can move the Hash; the stored Hash is what reads return', async () => {
    const hashes = await hashesOfRewrites({ randomMapOrder: true }, 6);
    expect(new Set(hashes).size).toBeGreaterThan(1);
    const s = sim as Sim;
    const stub = (await s.m.get('/v1/acl/auth-methods')).json<{ Hash: string }[]>()[0];
    const one = (await s.m.get('/v1/acl/auth-method/okta')).json<{ Hash: string }>();
    expect(stub?.Hash).toBe(hashes.at(-1));
    expect(one.Hash).toBe(hashes.at(-1));
  });
});
