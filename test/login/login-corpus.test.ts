import { describe, expect, it } from 'vitest';
import { explainLogin } from '../../src/login/index.js';
import { caseWorld, LOGIN_CASES } from './nomad-login-cases.js';

/*
 * The offline login explanation gives the outcome Nomad gives (nomad-login-cases.ts, each case citing
 * where in Nomad's or go-bexpr's source its outcome comes from).
 */
describe('login explanations agree with Nomad', () => {
  it.each(LOGIN_CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const x = explainLogin(caseWorld(c), c.claims);
    const why = `${c.source}\n${JSON.stringify(x, null, 1)}`;
    expect(x.outcome, why).toBe(c.expect.outcome);
    if (c.expect.refusal) expect(x.refusal, why).toContain(c.expect.refusal);
    if (c.expect.matched) expect(x.rules.flatMap((r, i) => (r.matched ? [i] : [])), why).toEqual(c.expect.matched);
    if (c.expect.management !== undefined) expect(x.token?.type === 'management', why).toBe(c.expect.management);
    if (c.expect.roles) expect(x.token?.roles, why).toEqual(c.expect.roles);
    if (c.expect.policies) expect(x.token?.policies, why).toEqual(c.expect.policies);
    for (const [ns, caps] of Object.entries(c.expect.namespaces ?? {})) expect([...(x.token?.grants?.namespaces[ns] ?? [])].sort(), why).toEqual(caps);
    if (c.expect.node !== undefined) expect(x.token?.grants?.node, why).toBe(c.expect.node);
    if (c.expect.agent !== undefined) expect(x.token?.grants?.agent, why).toBe(c.expect.agent);
  });
});
