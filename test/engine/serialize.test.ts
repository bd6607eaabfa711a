import { describe, expect, it } from 'vitest';
import { toSavedPlan } from '../../src/engine/index.js';
import { parseSavedPlan, serializePlan } from '../../src/plan/serialize.js';
import { gh, okta } from './fixtures.js';
import { World } from './harness.js';

async function savedText(): Promise<string> {
  const w = new World();
  w.env = { OKTA_SECRET: 'shh-shh-shh' };
  return serializePlan(toSavedPlan(await w.plan([okta(), gh()]), { paths: ['/m'], targets: [] }));
}

describe('saved plan serialisation', () => {
  it('round-trips to the same bytes, formatVersion first', async () => {
    const text = await savedText();
    expect(serializePlan(parseSavedPlan(text, 'p.json'))).toBe(text);
    expect(text.startsWith('{\n  "formatVersion": "1.0",\n  "createdAt"')).toBe(true);
  });

  it('is independent of key insertion order', async () => {
    const text = await savedText();
    const shuffled = JSON.parse(text, (_k, v: unknown) =>
      v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).reverse()) : v,
    ) as Parameters<typeof serializePlan>[0];
    expect(serializePlan(shuffled)).toBe(text);
  });

  it('refuses another format version, naming the file and both versions', async () => {
    const text = (await savedText()).replace('"formatVersion": "1.0"', '"formatVersion": "0.9"');
    expect(() => parseSavedPlan(text, '/tmp/plan.json')).toThrow(
      expect.objectContaining({ code: 'plan.format-version', source: 'user', message: expect.stringMatching(/\/tmp\/plan\.json.*"0\.9".*1\.0/) }),
    );
  });

  it('refuses `plan --json` output, invalid JSON and bad shapes with plan.invalid', async () => {
    const data = JSON.parse(await savedText()) as Record<string, unknown>;
    const { saved: _saved, ...report } = data;
    expect(() => parseSavedPlan(JSON.stringify(report), 'r.json')).toThrow(expect.objectContaining({ code: 'plan.invalid', message: expect.stringContaining('plan --json') }));
    expect(() => parseSavedPlan('{', 'x.json')).toThrow(expect.objectContaining({ code: 'plan.invalid', message: expect.stringContaining('x.json') }));
    const badAction = JSON.stringify({ ...data, changes: [{ kind: 'NomadAuthMethod', name: 'x', action: 'replace', fields: [], notes: [] }] });
    expect(() => parseSavedPlan(badAction, 'y.json')).toThrow(expect.objectContaining({ code: 'plan.invalid', message: expect.stringContaining('changes[0].action') }));
    const badKind = JSON.stringify({ ...data, changes: [{ kind: 'Nope', name: 'x', action: 'create', fields: [], notes: [] }] });
    expect(() => parseSavedPlan(badKind, 'y.json')).toThrow(expect.objectContaining({ code: 'plan.invalid' }));
  });
});
