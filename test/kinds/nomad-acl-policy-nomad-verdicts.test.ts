import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPolicyHcl } from '../../src/kinds/nomad-acl-policy/policy-hcl.js';
import { startNomadSimulator, type NomadSimHandle } from '../../src/sandbox/nomad/index.js';
import { NOMAD_VERDICTS } from './nomad-acl-policy/nomad-verdicts.js';

/*
 * The offline policy check and the sandbox's parser are held to the verdicts real Nomad gives
 * (nomad-acl-policy/nomad-verdicts.ts, each case citing its source). Neither may refuse what Nomad
 * accepts: a false error blocks a valid policy, often one brought in by `converge export`.
 */

let sim: NomadSimHandle;
beforeAll(async () => {
  sim = await startNomadSimulator({ port: 0 });
});
afterAll(async () => {
  await sim.stop();
});

const cases = NOMAD_VERDICTS.map((c) => [c.name, c] as const);

describe('the offline policy check gives Nomad\'s verdict', () => {
  it.each(cases)('%s', (_name, c) => {
    const errors = checkPolicyHcl(c.rules).filter((p) => p.severity === 'error');
    expect(errors.length > 0 ? 'refuse' : 'accept', `${c.source}; offline: ${JSON.stringify(errors.map((e) => `${e.line}:${e.col} ${e.summary}`))}`).toBe(c.verdict);
  });
});

describe('the sandbox gives Nomad\'s verdict', () => {
  it.each(cases)('%s', async (_name, c) => {
    const res = await fetch(`${sim.url}/v1/acl/policy/verdict`, {
      method: 'PUT',
      headers: { 'X-Nomad-Token': sim.managementToken },
      body: JSON.stringify({ Name: 'verdict', Rules: c.rules }),
    });
    const text = await res.text();
    expect(res.status === 200 ? 'accept' : 'refuse', `${c.source}; sandbox: ${res.status} ${text}`).toBe(c.verdict);
    if (c.verdict === 'refuse' && c.nomadError !== undefined && c.sandboxWords === undefined) expect(text).toContain(c.nomadError);
  });
});
