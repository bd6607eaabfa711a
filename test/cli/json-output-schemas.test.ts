import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import AjvModule from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWorkspace, REPO, type Workspace } from '../e2e/harness.js';

/*
 * schemas/plan.json and schemas/apply-result.json describe `plan --json` and `apply --json` for the
 * machines that read them (CI bots, policy checks). Every object is closed, so a field added to the
 * output without its schema, or a renamed one, fails here.
 */
const Ajv = ((AjvModule as unknown as { default?: typeof AjvModule }).default ?? AjvModule) as unknown as typeof AjvModule.default;
const schema = (file: string) => JSON.parse(readFileSync(join(REPO, 'schemas', file), 'utf8')) as Record<string, unknown>;

describe('JSON output validates against its published schema', () => {
  let ws: Workspace;
  const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
  const plan = ajv.compile(schema('plan.json'));
  const applyResult = ajv.compile(schema('apply-result.json'));
  const valid = (validate: typeof plan, text: string) => {
    const ok = validate(JSON.parse(text));
    return ok ? 'valid' : ajv.errorsText(validate.errors);
  };

  beforeAll(async () => {
    ws = await openWorkspace({ copyExamples: true });
    // A document the server will refuse (a 72h TTL): one failed outcome in the apply result.
    await ws.write('extra.yaml', readFileSync(join(REPO, 'test/fixtures/manifests/valid/expected-warnings.yaml'), 'utf8'));
  });
  afterAll(async () => ws.close());

  it('plan --json with creates', async () => {
    const r = await ws.cli(['plan', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(valid(plan, r.stdout)).toBe('valid');
    const p = JSON.parse(r.stdout) as { changes: Record<string, unknown>[] };
    expect(p.changes.length).toBeGreaterThan(3);
    // The schema is not a rubber stamp: an unknown field on a change is refused.
    const extra = { ...p, changes: p.changes.map((c, i) => (i === 0 ? { ...c, surprise: true } : c)) };
    expect(valid(plan, JSON.stringify(extra))).toContain('must NOT have additional properties');
  });

  it('apply --json with successes and a failure', async () => {
    const r = await ws.cli(['apply', '--auto-approve', '--json', '--poll-interval', '50ms']);
    // The 72h TTL of the warning document is refused by the server: one failed outcome with an error.
    expect(r.code, r.stderr).toBe(1);
    expect(valid(applyResult, r.stdout)).toBe('valid');
    const a = JSON.parse(r.stdout) as { formatVersion: string; outcomes: { status: string; error?: unknown }[] };
    // Regression: apply --json carried no formatVersion while plan and drift JSON did.
    expect(a.formatVersion).toBe('1.0');
    expect(a.outcomes.some((o) => o.status === 'failed' && o.error !== undefined)).toBe(true);
    expect(a.outcomes.some((o) => o.status === 'succeeded')).toBe(true);
  });

  it('plan --json with drift from an out-of-band change', async () => {
    const url = `${ws.sandbox.nomad.url}/v1/acl/auth-method/okta`;
    const headers = { 'X-Nomad-Token': ws.sandbox.nomad.managementToken };
    const live = (await (await fetch(url, { headers })).json()) as Record<string, unknown>;
    live.TokenLocality = live.TokenLocality === 'global' ? 'local' : 'global';
    expect((await fetch(url, { method: 'POST', headers, body: JSON.stringify(live) })).status).toBe(200);
    const r = await ws.cli(['plan', '--json']);
    expect(valid(plan, r.stdout)).toBe('valid');
    expect((JSON.parse(r.stdout) as { drift: unknown[] }).drift.length).toBeGreaterThan(0);
  });
});
