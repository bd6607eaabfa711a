import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findStaleness, toSavedPlan } from '../../src/engine/index.js';
import type { Change } from '../../src/plan/types.js';
import { renderApplyResultText } from '../../src/views/apply-result.js';
import { renderDriftText } from '../../src/views/drift.js';
import { renderPlanJson } from '../../src/views/plan-json.js';
import { renderPlanMarkdown } from '../../src/views/plan-markdown.js';
import { renderPlanText } from '../../src/views/plan-text.js';
import { SECRET, TfeWorld, doc, lambdaModule, vpcModule } from '../providers/tfe/harness.js';

/*
 * What a reviewer reads about no-code modules and workspaces, from plans the real engine makes
 * against the TFE simulator over loopback: one line per variable and per variable option, only the
 * variable fields that changed, a version move said once, no pending drift repeated under the plan.
 */

const ws = (variables: unknown[]) =>
  doc('NoCodeWorkspace', 'vpc-dev', { module: 'vpc', project: 'Platform', description: 'Development VPC', variables, deletion: 'safe' });

const lambdaDev = () => doc('NoCodeWorkspace', 'lambda-dev', { module: 'lambda', variables: [{ key: 'function_name', value: 'hello-dev' }] });

const VARS = [
  { key: 'region', value: 'eu-west-1' },
  { key: 'db_password', value: { fromEnv: 'VPC_DB_PASSWORD' }, sensitive: true },
  { key: 'tags', value: '{ team = "net" }', hcl: true, description: 'Tags for every resource' },
];

function text(run: { plan: Parameters<typeof renderPlanText>[0] }): string {
  return renderPlanText(run.plan, { color: false });
}

function change(changes: readonly Change[], name: string): Change {
  const c = changes.find((x) => x.name === name);
  if (!c) throw new Error(`no change for ${name}`);
  return c;
}

describe('no-code plan views against the TFE simulator', () => {
  let w: TfeWorld;
  beforeAll(async () => {
    w = await TfeWorld.start();
  });
  afterAll(async () => w?.close());

  it('a workspace create lists one line per variable, attributes only when set, the secret as (sensitive)', async () => {
    const run = await w.plan([lambdaModule(), vpcModule('1.4.0'), ws(VARS)]);
    const out = text(run);
    expect(out).toContain('      variables.terraform.region: "eu-west-1"\n');
    expect(out).toContain('      variables.terraform.db_password: (sensitive)\n');
    expect(out).toContain('      variables.terraform.tags: "{ team = \\"net\\" }" (description "Tags for every resource", hcl)\n');
    // No JSON blob of the whole map, no empty env category, no second line for the secret value.
    expect(out).not.toMatch(/variables: \{/);
    expect(out).not.toContain('variables.env');
    expect(out).not.toContain('db_password.value');
    // Module options: one line per option; the lambda module's empty options are no line at all.
    expect(out).toContain('      variableOptions.region: {"type":"string","options":["us-east-1","eu-west-1"]}\n');
    expect(out).not.toContain('variableOptions: {}');
    // A create sets no empty description: that line would be noise (the JSON keeps the field).
    const preview = await w.plan([lambdaModule(), lambdaDev()]);
    expect(text(preview)).toContain('      variables.terraform.function_name: "hello-dev"\n');
    expect(text(preview)).not.toContain('description: ""');
    expect(change(preview.plan.changes, 'lambda-dev').fields.find((f) => f.path === 'description')?.after).toBe('');

    // JSON: the same paths, the record as the value, the secret still its own sensitive field.
    const json = JSON.parse(renderPlanJson(run.plan)) as { changes: Change[] };
    const fields = change(json.changes, 'vpc-dev').fields;
    expect(fields.find((f) => f.path === 'variables.terraform.region')).toEqual({
      path: 'variables.terraform.region',
      before: null,
      after: { value: 'eu-west-1', description: '', hcl: false, sensitive: false },
      sensitive: false,
    });
    expect(fields.find((f) => f.path === 'variables.terraform.db_password.value')).toMatchObject({ after: '(sensitive)', sensitive: true });
    expect(change(json.changes, 'lambda').fields.map((f) => f.path)).toEqual(['enabled', 'registryModule', 'versionPin']);
    expect(change(json.changes, 'vpc-dev').fields.find((f) => f.path === 'description')?.after).toBe('Development VPC');

    const md = renderPlanMarkdown(run.plan);
    expect(md).toContain('+ variables.terraform.db_password: (sensitive)\n');
    expect(md).toContain('+ variables.terraform.region: "eu-west-1"\n');
    for (const s of [out, md, renderPlanJson(run.plan)]) expect(s).not.toContain(SECRET);

    const result = await w.apply(run);
    expect(result.counts.failed).toBe(0);
    const lines = renderApplyResultText(result, run.plan);
    expect(lines).toMatch(/^ {2}\+ NoCodeWorkspace\/vpc-dev {2}created ws-\S+ at 1\.4\.0: run applied$/m);
    expect(lines).toMatch(/^ {2}\+ NoCodeModule\/vpc +created: enabled no-code provisioning for acme\/vpc\/aws at 1\.4\.0 \(nocode-\S+\)$/m);
    expect(lines).toMatch(/^ +run: http:\/\/127\.0\.0\.1:\d+\/app\/acme\/workspaces\/vpc-dev\/runs\/run-\S+$/m);
    expect(lines).not.toMatch(/created: created|\bok\b/);
  });

  it('an update names only the variable fields that changed; staleness and drift name the same paths', async () => {
    const edited = [{ ...VARS[0], value: 'us-east-1' }, VARS[1], { ...VARS[2], hcl: false }];
    const objects = [lambdaModule(), vpcModule('1.4.0'), ws(edited)];
    const run = await w.plan(objects);
    const c = change(run.plan.changes, 'vpc-dev');
    expect(c.fields.map((f) => f.path)).toEqual(['variables.terraform.region.value', 'variables.terraform.tags.hcl']);
    const out = text(run);
    expect(out).toContain('      variables.terraform.region.value: "eu-west-1" → "us-east-1"\n');
    expect(out).toContain('      variables.terraform.tags.hcl: true → false\n');
    expect(out).not.toMatch(/\.description:|\.sensitive:/);

    // Someone edits the region by hand after the plan was saved: the stale plan names that variable's field.
    const saved = toSavedPlan(run, { paths: [], targets: [] });
    const wsId = w.state.doc.records.find((r) => r.name === 'vpc-dev')?.id ?? '';
    const headers = { Authorization: `Bearer ${w.sim.tokens.team}`, 'Content-Type': 'application/vnd.api+json' };
    const list = (await (await fetch(`${w.sim.url}/api/v2/workspaces/${wsId}/vars`, { headers })).json()) as { data: { id: string; attributes: { key: string } }[] };
    const varId = list.data.find((v) => v.attributes.key === 'region')?.id ?? '';
    const patched = await fetch(`${w.sim.url}/api/v2/workspaces/${wsId}/vars/${varId}`, {
      method: 'PATCH',
      headers,
      body: JSON.stringify({ data: { id: varId, type: 'vars', attributes: { value: 'ap-south-1' } } }),
    });
    expect(patched.status).toBe(200);
    const fresh = await w.plan(objects);
    const stale = findStaleness(saved, fresh);
    expect(stale.map((s) => s.field)).toContain('variables.terraform.region.value');
    expect(findStaleness(toSavedPlan(fresh, { paths: [], targets: [] }), await w.plan(objects))).toEqual([]);

    const drift = renderDriftText(fresh.plan, { color: false });
    expect(drift).toContain('variables.terraform.region.value: "eu-west-1" → "ap-south-1"');
    // The plan shows the hand edit (it adds information) but not the pending manifest change again.
    const planText = text(fresh);
    expect(planText).toContain('Changed outside converge');
    expect(planText).not.toContain('Pending:');
    expect(drift).toContain('Pending:');

    const result = await w.apply(fresh);
    expect(result.counts.failed).toBe(0);
    expect(renderApplyResultText(result, fresh.plan)).toMatch(
      /^ {2}~ NoCodeWorkspace\/vpc-dev {2}updated \(variables\.terraform\.region\.value, variables\.terraform\.tags\.hcl\)/m,
    );
  });

  it('a pin bump says the version move once, and the apply result says it once too', async () => {
    const vars = [{ ...VARS[0], value: 'us-east-1' }, VARS[1], { ...VARS[2], hcl: false }];
    const objects = [lambdaModule(), vpcModule('1.5.0'), ws(vars)];
    const run = await w.plan(objects);
    const up = change(run.plan.changes, 'vpc-dev');
    expect(up.action).toBe('upgrade');
    const out = text(run);
    expect(out.match(/1\.4\.0.{1,6}1\.5\.0/g)?.length).toBe(3); // module versionPin, workspace moduleVersion, and the reason
    expect(out).not.toContain('version: 1.4.0 → 1.5.0');
    expect(out).toContain('      moduleVersion: "1.4.0" → "1.5.0"\n');
    expect(up.reasons).toEqual([{ code: 'module-version', module: 'vpc', from: '1.4.0', to: '1.5.0' }]);
    expect(out).not.toContain('Drift since the last apply');
    const md = renderPlanMarkdown(run.plan);
    expect(md).not.toContain('- version:');
    expect(md).not.toContain('Drift since the last apply');

    const result = await w.apply(run);
    expect(result.counts.failed).toBe(0);
    const lines = renderApplyResultText(result, run.plan);
    expect(lines).toMatch(/^ {2}\^ NoCodeWorkspace\/vpc-dev {2}upgraded 1\.4\.0 → 1\.5\.0: upgrade run run-\S+ applied$/m);
    expect(lines).toMatch(/^ {2}~ NoCodeModule\/vpc +updated nocode-\S+: versionPin$/m);
    expect(lines).not.toContain('now at');
  });
});
