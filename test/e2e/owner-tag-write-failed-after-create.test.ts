import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applying, inProcess, planning, storyPerTest, type CommandStep as Step, type Story } from '../library/story.js';
import type { CliResult } from './harness.js';
import { lambdaManifests } from './manifests.js';
import { startRecordingProxy, type RecordingProxy } from '../reliability/recording-proxy.js';

/*
 * Regression: a named state's workspace whose owner-tag write failed right after its create stayed untagged
 * until that state's next plan, and nothing in the state said so. The no-code create takes no tags, so the
 * creating apply now tries the tag again once the first run is followed; a tag still missing is recorded as
 * pending (`extra.ownerTagPending`) and added by the next apply of that state, while another named state
 * refuses to take the untagged workspace without consent (decisions.md §27, §29). The tag writes are refused
 * by a loopback proxy of the test's own (HCP Terraform's 422), the rest goes to the simulator. In-process: each
 * step runs the command's own code through the CLI's Host in this process (real time), output and exit code
 * collected.
 */

/** A command run in `dir` with the story's environment (and `extraEnv`). */
const inDir = (ws: Story, dir: string, step: Step, extraEnv: Record<string, string> = {}): Promise<CliResult> =>
  inProcess({ cwd: dir, env: { ...ws.env, ...extraEnv } }, step);

const settings = (name: string) => `kind: Settings\nname: s\nspec:\n  tfe: { organization: acme }\n  state: { backend: local, path: .converge/state.json, name: ${name} }\n`;
const LAMBDA = lambdaManifests();
const TAG_PATH = /^\/api\/v2\/workspaces\/[^/]+\/relationships\/tags$/;
const REFUSAL = JSON.stringify({ errors: [{ status: '422', title: 'invalid attribute', detail: 'Tags could not be saved' }] });

const workspace = storyPerTest();
let proxy: RecordingProxy | undefined;
let bDir: string | undefined;
afterEach(async () => {
  await proxy?.stop();
  proxy = undefined;
  if (bDir) await rm(bDir, { recursive: true, force: true });
  bDir = undefined;
});

async function tags(ws: Story): Promise<string[]> {
  const res = await fetch(`${ws.env.TFE_ADDRESS}/api/v2/organizations/acme/workspaces/lambda-dev`, { headers: { Authorization: `Bearer ${ws.sandbox.tfe.tokens.team}` } });
  const body = (await res.json()) as { data: { attributes: { 'tag-names': string[] } } };
  return body.data.attributes['tag-names'];
}

function recordExtra(ws: Story): Record<string, unknown> {
  const state = JSON.parse(readFileSync(join(ws.dir, '.converge', 'state.json'), 'utf8')) as { records: { kind: string; extra: Record<string, unknown> }[] };
  return state.records.find((r) => r.kind === 'NoCodeWorkspace')?.extra ?? {};
}

/** Refuses the next `times` owner-tag writes with a 422, forwarding everything else. */
function refuseTagWrites(p: RecordingProxy, times: number): void {
  let left = times;
  p.setReject({
    match: (method, path) => method === 'POST' && TAG_PATH.test(path) && left-- > 0,
    status: 422,
    contentType: 'application/vnd.api+json',
    body: REFUSAL,
  });
}

async function givenStateA(times: number): Promise<{ ws: Story; apply: CliResult }> {
  const ws = await workspace({ realTime: true });
  await ws.write('settings.yaml', settings('team-a'));
  await ws.write('tfe.yaml', LAMBDA);
  proxy = await startRecordingProxy(ws.sandbox.tfe.url);
  refuseTagWrites(proxy, times);
  const apply = await inDir(ws, ws.dir, applying(), { TFE_ADDRESS: proxy.url });
  return { ws, apply };
}

describe('an owner tag that fails right after the create', () => {
  it('is written by the same apply once the first run is followed', async () => {
    const { ws, apply } = await givenStateA(1);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    expect(apply.stderr).toContain('workspace lambda-dev was created but not tagged with its owner yet');
    expect(await tags(ws)).toEqual(['converge-state:team-a']);
    expect(recordExtra(ws).ownerTagPending).toBeUndefined();
    const plan = await inDir(ws, ws.dir, planning({ detailedExitcode: true }));
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  });

  it('still failing, stays pending in the record; another named state will not take the workspace without consent; the next apply tags it', async () => {
    const { ws, apply } = await givenStateA(2);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    expect(apply.stderr).toContain('workspace lambda-dev is still not tagged with its owner');
    expect(await tags(ws)).toEqual([]);
    expect(recordExtra(ws).ownerTagPending).toBe('converge-state:team-a');

    bDir = await mkdtemp(join(tmpdir(), 'converge-e2e-b-'));
    await writeFile(join(bDir, 'settings.yaml'), settings('team-b'));
    await writeFile(join(bDir, 'tfe.yaml'), LAMBDA);
    ws.sandbox.log.clear();
    const b = await inDir(ws, bDir, applying());
    expect(b.code, b.stdout + b.stderr).toBe(1);
    expect(b.stderr).toContain('refusing to record 2 existing objects as owned without consent');
    expect(ws.sandbox.log.writes('tfe')).toEqual([]);

    const plan = await inDir(ws, ws.dir, planning({ detailedExitcode: true }));
    expect(plan.code, plan.stdout + plan.stderr).toBe(2);
    expect(plan.stdout).toContain('converge-state:team-a');
    const again = await inDir(ws, ws.dir, applying());
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(await tags(ws)).toEqual(['converge-state:team-a']);
    expect(recordExtra(ws).ownerTagPending).toBeUndefined();
    const bPlan = await inDir(ws, bDir, planning());
    expect(bPlan.code).toBe(1);
    expect(bPlan.stderr).toContain('is owned by the converge state "team-a"');
  });
});
