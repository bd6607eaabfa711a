import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oidc, startSim, type AuthMethodJson, type Sim } from './helpers.js';

let sim: Sim;
beforeAll(async () => {
  sim = await startSim();
});
afterAll(async () => {
  await sim.s.stop();
});

describe('one default across all types (docs/reference/nomad-api.md §4)', () => {
  it('refuses a second default of any type, allows re-upserting the current one, and moves in two steps', async () => {
    expect((await sim.m.post('/v1/acl/auth-method', oidc('first', { Default: true }))).status).toBe(200);
    const jwt = { Name: 'second', Type: 'JWT', TokenLocality: 'local', MaxTokenTTL: '1h', Default: true, Config: { JWKSURL: 'https://idp/jwks' } };
    const r = await sim.m.post('/v1/acl/auth-method', jwt);
    expect([r.status, r.text]).toEqual([400, 'default method already exists: first']);
    expect((await sim.m.post('/v1/acl/auth-method/first', oidc('first', { Default: true }))).status).toBe(200);
    // Move: clear the old default, then set the new one.
    expect((await sim.m.post('/v1/acl/auth-method/first', oidc('first', { Default: false }))).status).toBe(200);
    const moved = await sim.m.post('/v1/acl/auth-method', jwt);
    expect(moved.json<AuthMethodJson>().Default).toBe(true);
  });

  it('silently clears Default when an update leaves it out (Default is not merged)', async () => {
    const r = await sim.m.post('/v1/acl/auth-method/second', { Name: 'second', MaxTokenTTL: '2h' });
    expect(r.status).toBe(200);
    const m = r.json<AuthMethodJson>();
    expect(m.Default).toBe(false);
    expect(m.Type).toBe('JWT');
    const list = (await sim.anon.get('/v1/acl/auth-methods')).json<Array<{ Name: string; Default: boolean }>>();
    expect(list.filter((x) => x.Default)).toEqual([]);
  });
});
