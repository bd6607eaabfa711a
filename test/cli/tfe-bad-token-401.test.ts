import { afterEach, describe, expect, it } from 'vitest';
import { openWorkspace, type Workspace } from '../e2e/harness.js';

/*
 * HCP Terraform answers a call without a token, or with an unknown one, with 401
 * `unauthorized` (docs/reference/hcp-terraform-api.md §8), not 404. The sandbox does; converge says the token is the
 * problem, and sends nothing else.
 */

let ws: Workspace | undefined;
afterEach(async () => {
  await ws?.close();
  ws = undefined;
});

describe('an HCP Terraform token the service does not know', () => {
  it('is a 401 from the sandbox, and converge says to fix the token', async () => {
    ws = await openWorkspace({ copyExamples: true });
    const r = await ws.cli(['plan', 'tfe', 'settings.yaml'], { TFE_TOKEN: 'not-a-real-token' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('HCP Terraform rejected the token (401)');
    expect(r.stderr).toContain('set TFE_TOKEN to a valid user or team token');
    const tfe = ws.sandbox.log.entries().filter((e) => e.service === 'tfe');
    expect(tfe.length).toBeGreaterThan(0);
    expect(tfe.every((e) => e.status === 401 || e.status === 204)).toBe(true);
    expect(ws.sandbox.log.writes('tfe')).toEqual([]);
  });
});
