import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import AjvModule from 'ajv';
import { describe, expect, it } from 'vitest';
import { driftCommand } from '../../src/cli/commands/drift.js';
import { REPO, workspacePerTest } from '../e2e/harness.js';
import { applying, inStory, planning, storyPerTest } from '../library/story.js';

/*
 * `--json-stream` writes one JSON object per line on stdout (schemas/json-stream.json): the events of
 * docs/events.md as they happen, diagnostics, and a summary last. Each line validates; an apply streams its
 * phases and one outcome per change; a failing apply streams its diagnostics and exits 1; a sensitive
 * variable's value is on no line. The commands run in-process (their own code, the CLI's Host given
 * `--json-stream`) on the sandbox's clock; the flags refused together are commander's, so that case runs the
 * built CLI.
 */
const Ajv = ((AjvModule as unknown as { default?: typeof AjvModule }).default ?? AjvModule) as unknown as typeof AjvModule.default;
const schema = (file: string) => JSON.parse(readFileSync(join(REPO, 'schemas', file), 'utf8')) as Record<string, unknown>;
const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
ajv.addFormat('date-time', { validate: (s: string) => !Number.isNaN(Date.parse(s)) });
ajv.addSchema(schema('diagnostics.json'));
const lineSchema = ajv.compile(schema('json-stream.json'));
const applyResultSchema = ajv.compile(schema('apply-result.json'));

interface Line {
  type: 'event' | 'diagnostic' | 'summary';
  '@level': string;
  '@message': string;
  code?: string;
  data?: Record<string, unknown>;
  diagnostic?: { severity: string; code: string; summary: string; range?: { file: string; start: { line: number; col: number } } };
  command?: string;
  exitCode?: number;
  result?: { outcomes: { kind: string; name: string; status: string }[] };
}

/** Every line of stdout parsed and valid against the schema (none empty, none partial). */
function streamLines(stdout: string): Line[] {
  expect(stdout.endsWith('\n'), 'stdout ends with a newline').toBe(true);
  return stdout
    .slice(0, -1)
    .split('\n')
    .map((text) => {
      const line = JSON.parse(text) as Line;
      expect(lineSchema(line) ? 'valid' : `${ajv.errorsText(lineSchema.errors)} in ${text}`).toBe('valid');
      return line;
    });
}

const SECRET = 'stream-vpc-Pw4Rk7-Yh52';

const stream = { jsonStream: true } as const;

describe('apply --json-stream', () => {
  const workspace = workspacePerTest();
  const story = storyPerTest();

  it('streams the phases, one outcome per change, run states, and a summary with the apply result', async () => {
    const ws = await story({ copyExamples: true, env: { VPC_DB_PASSWORD: SECRET } });
    const plan = await inStory(ws, planning({ json: true }), { json: true, command: 'plan' });
    const planned = (JSON.parse(plan.stdout) as { changes: { kind: string; name: string; action: string }[] }).changes.filter((c) => c.action !== 'no-op');
    expect(planned.length).toBeGreaterThan(5);

    const r = await inStory(ws, applying({ pollInterval: '10ms' }), { ...stream, command: 'apply' });
    expect(r.code, r.stderr).toBe(0);
    const lines = streamLines(r.stdout);
    const events = lines.filter((l) => l.type === 'event');
    const phases = events.filter((l) => l.code === 'cli.phase.start').map((l) => l.data?.phase);
    expect(phases.some((p) => String(p).startsWith('planning'))).toBe(true);
    expect(phases).toContain('applying');
    // One outcome per planned change, no more.
    const done = events.filter((l) => l.code === 'apply.change.done').map((l) => `${String(l.data?.kind)}/${String(l.data?.name)}`);
    expect([...done].sort()).toEqual(planned.map((c) => `${c.kind}/${c.name}`).sort());
    expect(events.some((l) => l.code === 'tfe.run.phase')).toBe(true);
    // The summary is last, once, with the apply --json document.
    const summary = lines.at(-1);
    expect(lines.filter((l) => l.type === 'summary')).toHaveLength(1);
    expect(summary?.type).toBe('summary');
    expect(summary?.command).toBe('apply');
    expect(summary?.exitCode).toBe(0);
    expect(applyResultSchema(summary?.result) ? 'valid' : ajv.errorsText(applyResultSchema.errors)).toBe('valid');
    expect(summary?.result?.outcomes).toHaveLength(planned.length);
    // The sensitive variable's value (db_password) is on no line, and progress is not drawn on stderr.
    expect(r.stdout).not.toContain(SECRET);
    expect(r.stderr).not.toContain(SECRET);
    expect(r.stderr).not.toContain('create succeeded');
  });

  it('a failing apply streams its diagnostics with file:line:col, a failed summary, and exits 1', async () => {
    const ws = await story({ copyExamples: true });
    await ws.write('nomad/broken.yaml', 'kind: NomadAuthMethod\nname: broken\nspec:\n  type: OIDC\n  tokenLocality: nowhere\n');
    const r = await inStory(ws, applying(), { ...stream, command: 'apply' });
    expect(r.code).toBe(1);
    const lines = streamLines(r.stdout);
    const diag = lines.find((l) => l.type === 'diagnostic' && l.diagnostic?.range?.file.endsWith('broken.yaml') && l.diagnostic.range.start.line === 5);
    expect(diag?.['@level']).toBe('error');
    expect(diag?.diagnostic?.range?.start.col).toBe(18); // tokenLocality: nowhere
    expect(lines.at(-1)).toMatchObject({ type: 'summary', exitCode: 1, '@level': 'error' });
    expect(ws.sandbox.log.writes('nomad')).toEqual([]);
  });

  it('an error that ends the command is a diagnostic line, and the token is on no line', async () => {
    const ws = await story({ copyExamples: true });
    const token = 'refused-token-Jq40-do-not-print';
    const r = await inStory(ws, applying(), { ...stream, command: 'apply' }, { TFE_TOKEN: token });
    expect(r.code).toBe(1);
    const lines = streamLines(r.stdout);
    const diags = lines.filter((l) => l.type === 'diagnostic');
    expect(diags.at(-1)?.diagnostic?.summary).toContain('HCP Terraform rejected the token (401)');
    expect(lines.at(-1)).toMatchObject({ type: 'summary', exitCode: 1 });
    expect(r.stdout).not.toContain(token);
  });

  it('--json and --json-stream together are refused', async () => {
    const ws = await workspace({ copyExamples: true });
    const r = await ws.cli(['apply', '--json', '--json-stream']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("option '--json-stream' cannot be used with option '--json'");
  });
});

describe('plan and drift --json-stream', () => {
  const story = storyPerTest();

  it('plan streams its phases and ends with the plan document; drift ends with the drift document', async () => {
    const ws = await story({ copyExamples: true });
    const plan = await inStory(ws, planning(), { ...stream, command: 'plan' });
    expect(plan.code, plan.stderr).toBe(0);
    const lines = streamLines(plan.stdout);
    expect(lines.some((l) => l.code === 'cli.phase.start')).toBe(true);
    expect(lines.at(-1)).toMatchObject({ type: 'summary', command: 'plan', exitCode: 0, result: { formatVersion: '1.0' } });
    const drift = await inStory(ws, (h) => driftCommand(h, ['.'], {}), { ...stream, command: 'drift' });
    expect(drift.code).toBe(2);
    expect(streamLines(drift.stdout).at(-1)).toMatchObject({ type: 'summary', command: 'drift', exitCode: 2 });
  });
});
