import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openWorkspace, runCli, type Workspace } from '../e2e/harness.js';

/*
 * Regressions: `apply --plan` silently ignored paths and --target beside it; the saved plan
 * recorded absolute manifest paths, so it broke in another checkout; re-applying an applied plan said
 * objects "appeared since the plan was made (created outside converge?)".
 */

let ws: Workspace | undefined;
const extra: string[] = [];
afterEach(async () => {
  await ws?.close();
  ws = undefined;
  for (const d of extra.splice(0)) await rm(d, { recursive: true, force: true });
});

describe('saved plans', () => {
  it('apply --plan refuses paths, --target and the other plan flags beside it, sending nothing', async () => {
    ws = await openWorkspace({ copyExamples: true });
    expect((await ws.cli(['plan', '--out', 'plan.json', '.'])).code).toBe(0);
    for (const args of [['nomad'], ['--target', 'NomadAuthMethod/okta'], ['--adopt', 'NomadAuthMethod/okta'], ['--refresh-only'], ['--allow-empty']]) {
      const r = await ws.cli(['apply', '--plan', 'plan.json', ...args]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('apply --plan takes no manifest paths, --target, --rewrite, --adopt, --adopt-all, --allow-empty or --refresh-only');
    }
    expect(ws.sandbox.log.writes()).toEqual([]);
  });

  it('a plan saved in one checkout applies in another, and once applied it says so', async () => {
    ws = await openWorkspace({ copyExamples: true });
    expect((await ws.cli(['plan', '--out', 'plan.json', 'settings.yaml', 'nomad', 'tfe'])).code).toBe(0);
    const other = await mkdtemp(join(tmpdir(), 'converge-other-checkout-'));
    extra.push(other);
    await cp(ws.dir, other, { recursive: true });
    const apply = await runCli(['apply', '--plan', 'plan.json'], { cwd: other, env: ws.env });
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);

    const again = await runCli(['apply', '--plan', 'plan.json'], { cwd: other, env: ws.env });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('this saved plan was already applied');
    expect(again.stderr).not.toContain('appeared since the plan was made');
  }, 60_000);

  it('converge show renders a saved plan as text, JSON and Markdown, reading nothing else', async () => {
    ws = await openWorkspace({ copyExamples: true });
    const plan = await ws.cli(['plan', '--json', '--out', 'plan.json', '.']);
    expect(plan.code, plan.stderr).toBe(0);
    ws.sandbox.log.clear();
    const text = await ws.cli(['show', 'plan.json'], { NOMAD_TOKEN: '', TFE_TOKEN: '', OKTA_CLIENT_SECRET: '' });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('NomadAuthMethod/okta');
    expect(text.stdout).toMatch(/Plan: \d+ to create/);
    const json = await ws.cli(['show', '--json', 'plan.json']);
    expect(JSON.parse(json.stdout)).toEqual(JSON.parse(plan.stdout));
    const md = await ws.cli(['show', '--markdown', 'plan.json']);
    expect(md.stdout).toContain('converge plan (plan.json)');
    expect(ws.sandbox.log.entries()).toEqual([]);
    expect((await ws.cli(['show', 'missing.json'])).stderr).toContain('missing.json');
  });
});
