import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applying, forgetting, importing, inProcess, listing, openStory, planning, type CommandStep as Step, type Story } from '../library/story.js';
import type { CliResult } from './harness.js';

/*
 * Splitting a fleet: two states, one organization. A state with a name (Settings
 * `spec.state.name`) tags each workspace it creates `converge-state:<name>`; another state's plan refuses a
 * workspace carrying that tag instead of adopting it, names the owner and how to move it, and its apply sends
 * nothing. Both states share one simulator and one token, as two CI jobs would. In-process: each step runs the
 * command's own code (src/cli/commands) through the CLI's Host in this process, its output and exit code
 * collected; on real time, as the commands' host has no clock to share with the simulators.
 */


const settings = (name?: string) =>
  `kind: Settings\nname: s\nspec:\n  tfe: { organization: acme }\n  state: { backend: local, path: .converge/state.json${name ? `, name: ${name}` : ''} }\n`;

const LAMBDA = `kind: NoCodeModule
name: lambda
spec:
  registryModule: acme/lambda/aws
---
kind: NoCodeWorkspace
name: lambda-dev
spec:
  module: lambda
  variables:
    - key: function_name
      value: hello-dev
    - key: runtime
      value: nodejs20.x
`;

describe('a workspace owned by another state is refused, never adopted (commands in-process ↔ simulator)', () => {
  let a: Story;
  let bDir: string;
  const inA = (step: Step): Promise<CliResult> => inProcess({ cwd: a.dir, env: a.env }, step);
  const b = (step: Step): Promise<CliResult> => inProcess({ cwd: bDir, env: a.env }, step);
  const tags = async (): Promise<string[]> => {
    const res = await fetch(`${a.env.TFE_ADDRESS}/api/v2/organizations/acme/workspaces/lambda-dev`, { headers: { Authorization: `Bearer ${a.sandbox.tfe.tokens.team}` } });
    const body = (await res.json()) as { data: { id: string; attributes: { 'tag-names': string[] } } };
    return body.data.attributes['tag-names'];
  };

  beforeAll(async () => {
    a = await openStory({ realTime: true });
    await a.write('settings.yaml', settings('team-a'));
    await a.write('tfe.yaml', LAMBDA);
    const r = await inA(applying());
    expect(r.code, r.stdout + r.stderr).toBe(0);
    bDir = await mkdtemp(join(tmpdir(), 'converge-e2e-b-'));
    await writeFile(join(bDir, 'tfe.yaml'), LAMBDA);
  });
  afterAll(async () => {
    await a?.close();
    if (bDir) await rm(bDir, { recursive: true, force: true });
  });

  it('the first state tags the workspace it creates with its name, and stays converged', async () => {
    expect(await tags()).toEqual(['converge-state:team-a']);
    const p = await inA(planning({ detailedExitcode: true }));
    expect(p.code, p.stdout + p.stderr).toBe(0);
  });

  it('a second named state refuses it at plan time: file:line, the owner, how to move it; its apply writes nothing', async () => {
    await writeFile(join(bDir, 'settings.yaml'), settings('team-b'));
    const p = await b(planning({ detailedExitcode: true }));
    expect(p.code, p.stdout + p.stderr).toBe(1);
    expect(p.stderr).toContain('on tfe.yaml line 6, column 1:');
    expect(p.stderr).toContain('NoCodeWorkspace/lambda-dev is owned by the converge state "team-a" (its tag converge-state:team-a): this state (team-b) will not adopt it');
    expect(p.stderr).toContain('in the "team-a" state run `converge state rm NoCodeWorkspace/lambda-dev`');
    a.sandbox.log.clear();
    const apply = await b(applying());
    expect(apply.code, apply.stdout + apply.stderr).toBe(1);
    expect(a.sandbox.log.writes('tfe')).toEqual([]);
    expect(await tags()).toEqual(['converge-state:team-a']);
  });

  it('a state without a name refuses it too', async () => {
    await writeFile(join(bDir, 'settings.yaml'), settings());
    const p = await b(planning());
    expect(p.code).toBe(1);
    expect(p.stderr).toContain('owned by the converge state "team-a" (its tag converge-state:team-a): this state (it has no name) will not adopt it');
  });

  it('import into another state is refused with the plan\'s words, and records nothing', async () => {
    await writeFile(join(bDir, 'settings.yaml'), settings('team-b'));
    a.sandbox.log.clear();
    const r = await b(importing('NoCodeWorkspace/lambda-dev'));
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stderr).toContain('on tfe.yaml line 6, column 1:');
    expect(r.stderr).toContain('NoCodeWorkspace/lambda-dev is owned by the converge state "team-a" (its tag converge-state:team-a): this state (team-b) will not adopt it');
    expect(r.stderr).toContain('in the "team-a" state run `converge state rm NoCodeWorkspace/lambda-dev`');
    expect(a.sandbox.log.writes('tfe')).toEqual([]);
    expect((await b(listing())).stdout).not.toContain('lambda-dev');
  });

  it('state rm in the owning state removes its tag (one request); the other state imports it, and its next apply tags it', async () => {
    a.sandbox.log.clear();
    const forgot = await inA(forgetting('NoCodeWorkspace/lambda-dev'));
    expect(forgot.code, forgot.stdout + forgot.stderr).toBe(0);
    expect(forgot.stdout).toContain('Removed the owner tag converge-state:team-a from workspace lambda-dev');
    expect(a.sandbox.log.writes('tfe').map((e) => `${e.method} ${e.path}`)).toEqual([expect.stringMatching(/^DELETE \/api\/v2\/workspaces\/ws-[^/]+\/relationships\/tags$/)]);
    expect(await tags()).toEqual([]);
    expect((await inA(listing())).stdout).not.toContain('lambda-dev');

    a.sandbox.log.clear();
    const imp = await b(importing('NoCodeWorkspace/lambda-dev'));
    expect(imp.code, imp.stdout + imp.stderr).toBe(0);
    expect(imp.stdout).toContain('the next `converge apply` tags it converge-state:team-b');
    // Import sends nothing: the tag waits for the apply.
    expect(a.sandbox.log.writes('tfe')).toEqual([]);
    expect(await tags()).toEqual([]);
    const p = await b(planning({ json: true }));
    expect(p.code, p.stderr).toBe(0);
    const plan = JSON.parse(p.stdout) as { changes: { action: string; name: string; reason?: string }[] };
    expect(plan.changes.find((c) => c.name === 'lambda-dev')).toMatchObject({ action: 'update', reason: 'tag the workspace converge-state:team-b (owner of record)' });
    // The module lambda is still state A's: state B, named, takes it only with consent (decisions.md §27).
    const apply = await b(applying({ adopt: ['NoCodeModule/lambda'] }));
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    expect(await tags()).toEqual(['converge-state:team-b']);
    expect((await b(planning({ detailedExitcode: true }))).code).toBe(0);
  });

  /** A state of its own in a fresh directory, for one workspace `name`: `run` runs a command there. */
  const otherState = async (stateName: string | undefined, name: string) => {
    const dir = await mkdtemp(join(tmpdir(), 'converge-e2e-c-'));
    await writeFile(join(dir, 'settings.yaml'), settings(stateName));
    await writeFile(join(dir, 'tfe.yaml'), LAMBDA.replace(/lambda-dev/g, name).replace('hello-dev', `hello-${name}`));
    return { dir, run: (step: Step) => inProcess({ cwd: dir, env: a.env }, step) };
  };
  const tagsOf = async (name: string): Promise<string[]> => {
    const res = await fetch(`${a.env.TFE_ADDRESS}/api/v2/organizations/acme/workspaces/${name}`, { headers: { Authorization: `Bearer ${a.sandbox.tfe.tokens.team}` } });
    return ((await res.json()) as { data: { attributes: { 'tag-names': string[] } } }).data.attributes['tag-names'];
  };

  it('state rm in a state without a name sends nothing (it wrote no tag)', async () => {
    const c = await otherState(undefined, 'lambda-c');
    try {
      // A new state: taking the shared module lambda needs consent (decisions.md §27).
      const applied = await c.run(applying({ adoptAll: true }));
      expect(applied.code, applied.stdout + applied.stderr).toBe(0);
      a.sandbox.log.clear();
      const forgot = await c.run(forgetting('NoCodeWorkspace/lambda-c'));
      expect(forgot.code, forgot.stdout + forgot.stderr).toBe(0);
      expect(forgot.stdout).toContain('The live object is untouched');
      expect(a.sandbox.log.entries({ service: 'tfe' })).toEqual([]);
    } finally {
      await rm(c.dir, { recursive: true, force: true });
    }
  });

  it('state rm --keep-tag in a named state sends nothing and says the tag stays', async () => {
    const d = await otherState('team-d', 'lambda-d');
    try {
      const applied = await d.run(applying({ adoptAll: true }));
      expect(applied.code, applied.stdout + applied.stderr).toBe(0);
      a.sandbox.log.clear();
      const forgot = await d.run(forgetting('NoCodeWorkspace/lambda-d', true));
      expect(forgot.code, forgot.stdout + forgot.stderr).toBe(0);
      expect(forgot.stdout).toContain('Any owner tag stays on it (--keep-tag)');
      expect(a.sandbox.log.entries({ service: 'tfe' })).toEqual([]);
      expect(await tagsOf('lambda-d')).toEqual(['converge-state:team-d']);
    } finally {
      await rm(d.dir, { recursive: true, force: true });
    }
  });
});
