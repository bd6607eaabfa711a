import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginExplainCommand, type LoginExplainOptions } from '../../src/cli/commands/login.js';
import { applying, inStory, openStory, type CommandStep, type Story } from '../library/story.js';

/*
 * `converge login explain --live` evaluates against what Nomad holds, read as `converge export` reads it:
 * after the examples are applied it agrees with the manifests; after the rule is deleted by hand it says
 * the login is refused while the manifests still grant it. The commands run in-process on the sandbox's clock.
 */
const explaining = (opts: Partial<LoginExplainOptions> = {}): CommandStep => (h) => loginExplainCommand(h, ['.'], { method: 'okta', claims: 'ada.json', ...opts });
let ws: Story;
beforeAll(async () => {
  ws = await openStory({ copyExamples: true });
  await ws.write('ada.json', JSON.stringify({ email: 'ada@acme.example', groups: ['engineering'] }));
  const applied = await inStory(ws, applying({ pollInterval: '50ms' }));
  if (applied.code !== 0) throw new Error(applied.stderr);
});
afterAll(async () => ws.close());

describe('converge login explain --live', () => {
  it('reads the method, rules, roles and policies from Nomad, sending no writes', async () => {
    const writes = ws.sandbox.log.writes('nomad').length;
    const r = await inStory(ws, explaining({ live: true, json: true }), { json: true });
    expect(r.code, r.stderr).toBe(0);
    const x = JSON.parse(r.stdout) as { against: string; outcome: string; token: { roles: string[] } };
    expect(x.against).toBe('live');
    expect(x.outcome).toBe('granted');
    expect(x.token.roles).toEqual(['developer']);
    expect(ws.sandbox.log.writes('nomad').length).toBe(writes);
  });

  it('shows a login refused live that the manifests still grant', async () => {
    const headers = { 'X-Nomad-Token': ws.sandbox.nomad.managementToken };
    const rules = (await (await fetch(`${ws.sandbox.nomad.url}/v1/acl/binding-rules`, { headers })).json()) as { ID: string; AuthMethod: string }[];
    for (const rule of rules.filter((x) => x.AuthMethod === 'okta')) {
      expect((await fetch(`${ws.sandbox.nomad.url}/v1/acl/binding-rule/${rule.ID}`, { method: 'DELETE', headers })).status).toBe(200);
    }
    const live = await inStory(ws, explaining({ live: true }));
    expect(live.code, live.stderr).toBe(0);
    expect(live.stdout).toContain('evaluated against what Nomad holds now');
    expect(live.stdout).toContain('REFUSED: no role or policy bindings matched');
    const desired = await inStory(ws, explaining());
    expect(desired.stdout).toContain('GRANTED');
  });
});
