import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openWorkspace, type Workspace } from './harness.js';
import { LOCAL_STATE_SETTINGS } from './manifests.js';

/*
 * A templated bind name whose auth method exists only in Nomad (not a document of the run) was never
 * checked: `${value.team}` against a method that maps no claim to team was planned and applied, and
 * every login matching the rule would fail. `converge plan` now reads that method and refuses, at the
 * bindName line, sending nothing.
 */

const rule = (bindName: string) => `kind: NomadBindingRule
name: per-team
spec:
  authMethod: corp-jwt
  bindType: role
  bindName: "${bindName}"
`;

describe('a templated bind name against a method that exists only in Nomad', () => {
  let ws: Workspace;
  beforeEach(async () => {
    ws = await openWorkspace();
    await ws.write('settings.yaml', LOCAL_STATE_SETTINGS);
    const res = await fetch(`${ws.env.NOMAD_ADDR}/v1/acl/auth-method`, {
      method: 'PUT',
      headers: { 'X-Nomad-Token': ws.env.NOMAD_TOKEN ?? '' },
      body: JSON.stringify({
        Name: 'corp-jwt',
        Type: 'JWT',
        TokenLocality: 'local',
        MaxTokenTTL: '1h',
        Config: { JWKSURL: 'https://idp.example.com/jwks', BoundAudiences: ['nomad'], ClaimMappings: { email: 'email', 'https://example.com/team': 'squad' } },
      }),
    });
    expect(res.status).toBe(200);
  });
  afterEach(async () => ws?.close());

  it('a variable the live method does not map fails the plan at bindName; a mapped one passes', async () => {
    await ws.write('rules.yaml', rule('team-${value.team}'));
    ws.sandbox.log.clear();
    const bad = await ws.cli(['plan', '--no-color']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('NomadBindingRule/per-team: ${value.team}: the auth method maps no claim to team (auth method corp-jwt in Nomad)');
    expect(bad.stderr).toContain('on rules.yaml line 6, column 13:');
    expect(bad.stderr).toContain('every login that matches it would fail');
    expect(ws.sandbox.log.entries({ service: 'nomad' }).filter((e) => e.method !== 'GET')).toEqual([]);

    await ws.write('rules.yaml', rule('team-${value.squad}'));
    const good = await ws.cli(['plan', '--no-color']);
    expect(good.stderr).not.toContain('maps no claim');
    expect(good.code).toBe(0);
  });
});
