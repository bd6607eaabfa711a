import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import AjvModule from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalBackend } from '../../src/state/local-backend.js';
import { driftCommand } from '../../src/cli/commands/drift.js';
import { loginExplainCommand } from '../../src/cli/commands/login.js';
import { showCommand } from '../../src/cli/commands/show.js';
import { stateList } from '../../src/cli/commands/state.js';
import { validateCommand } from '../../src/cli/commands/validate.js';
import { REPO } from '../e2e/harness.js';
import { applying, inStory, openStory, planning, storyPerTest, type CommandStep, type Story } from '../library/story.js';

/*
 * A `--json` command that fails still prints one JSON document on stdout: the diagnostics document of
 * schemas/diagnostics.json (the shape `validate --json` prints), while stderr stays the human text and the
 * exit code stays 1. Every JSON output carries formatVersion, and `state list --json` lists the owned
 * objects under schemas/state-list.json without a secret. Each command runs in-process (its own code, the
 * CLI's Host given `--json`) on the sandbox's clock.
 */
const Ajv = ((AjvModule as unknown as { default?: typeof AjvModule }).default ?? AjvModule) as unknown as typeof AjvModule.default;
const schema = (file: string) => JSON.parse(readFileSync(join(REPO, 'schemas', file), 'utf8')) as Record<string, unknown>;
const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
const diagnosticsSchema = ajv.compile(schema('diagnostics.json'));
const stateListSchema = ajv.compile(schema('state-list.json'));
const valid = (validate: typeof diagnosticsSchema, doc: unknown) => (validate(doc) ? 'valid' : ajv.errorsText(validate.errors));

interface DiagnosticsDocument {
  formatVersion: string;
  valid: boolean;
  errorCount: number;
  diagnostics: { severity: string; code: string; summary: string; hint?: string; source?: string; range?: { file: string; start: { line: number; col: number } } }[];
}

/** stdout must be exactly one JSON document valid against schemas/diagnostics.json. */
function failureDocument(stdout: string): DiagnosticsDocument {
  expect(stdout.trim(), 'stdout of a failed --json command').not.toBe('');
  const doc = JSON.parse(stdout) as DiagnosticsDocument;
  expect(valid(diagnosticsSchema, doc)).toBe('valid');
  expect(doc.formatVersion).toBe('1.0');
  expect(doc.valid).toBe(false);
  return doc;
}

const BAD_DOCUMENT = 'kind: NomadAuthMethod\nname: broken\nspec:\n  type: OIDC\n  tokenLocality: nowhere\n';

describe('a failed --json command prints its diagnostics as JSON on stdout', () => {
  const story = storyPerTest();

  it('plan --json with an invalid manifest: the diagnostics with file, line and column', async () => {
    const ws = await story({ copyExamples: true });
    await ws.write('nomad/broken.yaml', BAD_DOCUMENT);
    const r = await inStory(ws, planning({ json: true }), { json: true });
    expect(r.code).toBe(1);
    const doc = failureDocument(r.stdout);
    // tokenLocality: nowhere, on line 5 column 18.
    const d = doc.diagnostics.find((x) => x.range?.file.endsWith('broken.yaml') && x.range.start.line === 5);
    expect(d, r.stdout).toBeDefined();
    expect(d?.severity).toBe('error');
    expect(d?.range?.start.col).toBe(18);
    // stderr stays human-readable, as without --json.
    expect(r.stderr).toContain('broken.yaml');
    expect(r.stderr.trimStart().startsWith('{')).toBe(false);
    expect(ws.sandbox.log.writes('nomad')).toEqual([]);
    expect(ws.sandbox.log.writes('tfe')).toEqual([]);
  });

  it('apply --json with a token HCP Terraform refuses: the error with its hint, and never the token', async () => {
    const ws = await story({ copyExamples: true });
    const token = 'refused-token-Xk93-do-not-print';
    const r = await inStory(ws, applying({ json: true }), { json: true }, { TFE_TOKEN: token });
    expect(r.code).toBe(1);
    const doc = failureDocument(r.stdout);
    const last = doc.diagnostics.at(-1);
    expect(last?.summary).toContain('HCP Terraform rejected the token (401)');
    expect(last?.hint).toContain('TFE_TOKEN');
    // The token is the user's to fix.
    expect(last?.source).toBe('user');
    expect(r.stderr).toContain('HCP Terraform rejected the token (401)');
    expect(r.stdout).not.toContain(token);
    expect(r.stderr).not.toContain(token);
  });

  it('plan --json without a Nomad token: the configuration error', async () => {
    const ws = await story({ copyExamples: true });
    const r = await inStory(ws, planning({ json: true }, ['nomad', 'settings.yaml']), { json: true }, { NOMAD_TOKEN: '' });
    expect(r.code).toBe(1);
    const doc = failureDocument(r.stdout);
    expect(doc.diagnostics.at(-1)?.source).toBe('user');
    expect(r.stderr).toContain('Error:');
  });

  it('apply --json while another run holds the state lock: the lock error naming the holder', async () => {
    const ws = await story({ copyExamples: true });
    const held = await createLocalBackend(join(ws.dir, '.converge', 'state.json')).lock('held by another run', { timeoutMs: 0 });
    try {
      const r = await inStory(ws, applying({ json: true }), { json: true });
      expect(r.code).toBe(1);
      const last = failureDocument(r.stdout).diagnostics.at(-1);
      expect(last?.summary).toContain('"held by another run"');
      expect(last?.hint).toContain('converge state unlock');
      expect(r.stderr).toContain(held.info.id);
    } finally {
      await held.release();
    }
  });

  it('without --json a failure prints nothing on stdout, as before', async () => {
    const ws = await story({ copyExamples: true });
    await ws.write('nomad/broken.yaml', BAD_DOCUMENT);
    const r = await inStory(ws, planning());
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
  });
});

describe('every --json output carries formatVersion', () => {
  let ws: Story;
  beforeAll(async () => {
    ws = await openStory({ copyExamples: true });
    const apply = await inStory(ws, applying({ pollInterval: '50ms' }));
    expect(apply.code, apply.stderr).toBe(0);
    await ws.write('ada.json', JSON.stringify({ email: 'Ada@acme.example', groups: ['engineering', 'staff'] }));
  });
  afterAll(async () => ws.close());

  const commands: [string, CommandStep, number[]][] = [
    ['validate', (h) => validateCommand(h, ['.'], { json: true }), [0]],
    ['plan', planning({ json: true, out: 'saved.plan' }), [0]],
    ['show', (h) => showCommand(h, 'saved.plan', { json: true }), [0]],
    ['apply', applying({ json: true, pollInterval: '50ms' }), [0]],
    ['drift', (h) => driftCommand(h, ['.'], { json: true }), [0]],
    ['state list', (h) => stateList(h, ['.'], { json: true }), [0]],
    ['login explain', (h) => loginExplainCommand(h, ['nomad'], { method: 'okta', claims: 'ada.json', json: true }), [0]],
  ];
  it.each(commands)('%s --json', async (command, step, codes) => {
    const r = await inStory(ws, step, { json: true, command });
    expect(codes, r.stderr).toContain(r.code);
    expect((JSON.parse(r.stdout) as { formatVersion?: unknown }).formatVersion).toBe('1.0');
  });

  it('state list --json: every owned object with its address, id and manifest, and no secret', async () => {
    const r = await inStory(ws, (h) => stateList(h, ['.'], { json: true }), { json: true });
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { objects: { address: string; kind: string; name: string; id: string; source?: string }[] };
    expect(valid(stateListSchema, doc)).toBe('valid');
    const text = await inStory(ws, (h) => stateList(h, ['.']));
    const lines = text.stdout.trim().split('\n');
    expect(doc.objects.map((o) => `${o.address}\t${o.id}`)).toEqual(lines.map((l) => l.split('\t').slice(0, 2).join('\t')));
    const okta = doc.objects.find((o) => o.address === 'NomadAuthMethod/okta');
    expect(okta).toMatchObject({ kind: 'NomadAuthMethod', name: 'okta', id: 'okta', source: 'nomad/auth-methods.yaml' });
    for (const secret of [ws.env.OKTA_CLIENT_SECRET, ws.env.VPC_DB_PASSWORD, ws.env.TFE_TOKEN, ws.env.NOMAD_TOKEN]) {
      expect(secret).toBeTruthy();
      expect(r.stdout).not.toContain(secret);
    }
    expect(r.stdout).not.toMatch(/digest|sha256/i);
  });
});
