import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderPlanMarkdown } from '../../src/views/plan-markdown.js';
import { renderPlanText } from '../../src/views/plan-text.js';
import { applyCommand } from '../../src/cli/commands/apply.js';
import { applying, openStory, planning, type Story } from '../library/story.js';
import { seedNomadAcl, type Workspace } from './harness.js';
import { lambdaManifests, TFE_SETTINGS } from './manifests.js';

/*
 * Adoption without writes (decisions.md §9), the library against both simulators in this process (the runs
 * followed on one ManualClock); the commands' own code (`Story.run`) for what the CLI prints (the apply's
 * recorded line, a saved plan written to its file and applied from it). Objects
 * converge made, then the state is lost. Every object still matches its manifest and none holds a
 * secret, so the plan has nothing to change (exit 0) but says what the next apply records; that
 * apply sends no request that writes, and afterwards ownership is real: a removed document deletes.
 */

const METHODS = `kind: NomadAuthMethod
name: github-actions
spec:
  type: JWT
  tokenLocality: global
  maxTokenTtl: 30m
  config:
    jwksUrl: https://token.actions.githubusercontent.com/.well-known/jwks
    boundAudiences: [https://github.com/acme]
    claimMappings: { repository: repository }
`;

const DEPLOYERS = `kind: NomadBindingRule
name: deployers
spec:
  authMethod: github-actions
  selector: 'value.repository == "acme/deploy"'
  bindType: policy
  bindName: deploy
`;

const READERS = `kind: NomadBindingRule
name: readers
spec:
  authMethod: github-actions
  bindType: policy
  bindName: read-only
`;

const ALL = ['NomadAuthMethod/github-actions', 'NomadBindingRule/deployers', 'NomadBindingRule/readers', 'NoCodeModule/lambda', 'NoCodeWorkspace/lambda-dev'];

interface StateFile {
  records: { kind: string; name: string; id: string; extra: Record<string, unknown> }[];
}

describe('adoption of matching live objects after the state is lost (library ↔ simulators in-process)', () => {
  let s: Story;
  const stateFile = () => join(s.dir, '.converge', 'state.json');
  const readState = async () => JSON.parse(await readFile(stateFile(), 'utf8')) as StateFile;
  const loseState = () => rm(join(s.dir, '.converge'), { recursive: true, force: true });
  /** `converge apply --plan FILE`. */
  const applyingSaved = (file: string) => s.run((h) => applyCommand(h, ['.'], { plan: file }));
  const planned = async (req: { adoptAll?: boolean } = {}) => (await s.plan(req))!.run.plan;
  let applied: StateFile;

  // Each test starts from a fresh simulator and directory with the objects applied and the state lost,
  // and first makes the rest of the world it needs, so any one of them runs alone (`-t`).
  beforeEach(async () => {
    s = await openStory();
    // The policies the rules bind, made outside converge (a rule binding a missing policy fails the plan).
    await seedNomadAcl(s as unknown as Workspace, { policies: ['deploy', 'read-only'] });
    await s.write('settings.yaml', TFE_SETTINGS);
    await s.write('methods.yaml', METHODS);
    await s.write('rules.yaml', `${DEPLOYERS}---\n${READERS}`);
    await s.write('lambda.yaml', lambdaManifests());
    expect((await s.apply()).status).toBe('applied');
    applied = await readState();
    await loseState();
  });
  afterEach(async () => s?.close());

  it('plan: no changes, one line saying what the next apply records, the rules matched by natural key said; nothing written', async () => {
    s.sandbox.log.clear();
    const plan = await planned();
    expect(plan.changes.map((c) => `${c.action} ${c.adopt === true ? 'adopt ' : ''}${c.kind}/${c.name}`)).toEqual(ALL.map((a) => `no-op adopt ${a}`));
    const text = renderPlanText(plan, { color: false });
    expect(text).toContain('No changes.');
    expect(text).toContain('5 existing objects match the manifests and will be recorded as owned by the next apply');
    for (const a of ALL) expect(text).toContain(`= ${a}`);
    // A rule adopted without state is said, with how it was matched.
    expect(text.match(/note: adopted existing rule [0-9a-f-]+: matched by auth method, selector, bind type and bind name/g)).toHaveLength(2);

    const md = renderPlanMarkdown(plan);
    expect(md).toContain('No changes.');
    expect(md).toContain('5 existing objects match the manifests');
    expect(s.sandbox.log.writes()).toEqual([]);
    await expect(readFile(stateFile(), 'utf8')).rejects.toThrow();
  });

  it('apply: records every object as owned without a single write, with the records apply itself would make', async () => {
    s.sandbox.log.clear();
    // A lost state is a new one: it takes the live objects over only with consent (decisions.md §27).
    await expect(s.apply()).rejects.toThrow('refusing to record 5 existing objects as owned without consent');
    // The line the apply command prints.
    const r = await s.run(applying({ adoptAll: true }));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`No changes to live objects. Recorded 5 existing objects as owned (nothing was sent): ${ALL.join(', ')}.`);
    expect(s.sandbox.log.writes()).toEqual([]);
    const state = await readState();
    expect(state.records.map((x) => `${x.kind}/${x.name} ${x.id}`)).toEqual(applied.records.map((x) => `${x.kind}/${x.name} ${x.id}`));
    const byName = new Map(state.records.map((x) => [x.name, x]));
    const before = new Map(applied.records.map((x) => [x.name, x]));
    // Nomad keeps the Hash (the next plan skips the reads); HCP Terraform the module and workspace ids.
    for (const name of ['github-actions', 'deployers', 'readers']) expect(byName.get(name)?.extra.hash, name).toBe(before.get(name)?.extra.hash);
    expect(byName.get('lambda-dev')?.extra).toMatchObject({ workspaceId: before.get('lambda-dev')?.id, moduleId: before.get('lambda')?.id });
  });

  it('then the plan is clean, says no adoption, and reads Nomad by Hash alone', async () => {
    // Adopted: the apply after the state was lost recorded every object.
    expect((await s.apply({ adoptAll: true })).status).toBe('applied');
    s.sandbox.log.clear();
    const plan = await planned();
    expect(plan.changes.every((c) => c.action === 'no-op' && !c.adopt)).toBe(true);
    const text = renderPlanText(plan, { color: false });
    expect(text).toContain('No changes.');
    expect(text).not.toContain('recorded as owned');
    expect(text).not.toContain('note:');
    // The identity probe first (is this Nomad?); the policy list checks that the policies the rules bind exist
    // (one list, no single reads).
    expect(s.sandbox.log.entries({ service: 'nomad' }).map((e) => `${e.method} ${e.path}`)).toEqual([
      'GET /v1/regions',
      'GET /v1/acl/policies',
      'GET /v1/acl/auth-methods',
      'GET /v1/acl/binding-rules',
    ]);
  });

  it('ownership is real: a removed document now plans its delete', async () => {
    expect((await s.apply({ adoptAll: true })).status).toBe('applied');
    await s.write('rules.yaml', DEPLOYERS);
    const plan = await planned();
    expect(plan.changes.filter((c) => c.action !== 'no-op').map((c) => `${c.action} ${c.kind}/${c.name}`)).toEqual(['delete NomadBindingRule/readers']);
  });

  it('a saved plan of adoptions applies the same way, and once applied it says so', async () => {
    // The saved-plan file is the plan command's, read back by the apply command.
    const p = await s.run(planning({ adoptAll: true, out: 'adopt.plan.json' }));
    expect(p.code, p.stderr).toBe(0);
    s.sandbox.log.clear();
    const a = await applyingSaved('adopt.plan.json');
    expect(a.code, a.stderr).toBe(0);
    expect(a.stdout).toContain('Recorded 5 existing objects as owned');
    expect(s.sandbox.log.writes()).toEqual([]);
    expect((await readState()).records).toHaveLength(5);
    const again = await applyingSaved('adopt.plan.json');
    expect(again.code).toBe(1);
    // Said as what it is, not as objects that "appeared" or changed since the plan.
    expect(again.stderr).toContain('this saved plan was already applied');
  });
});
