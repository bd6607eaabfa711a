import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appliedVpcWorkspace } from './applied-vpc-workspace.js';
import { driftCommand } from '../../src/cli/commands/drift.js';
import { applying, inProcessWith, planning, type CommandStep } from '../library/story.js';
import { EXAMPLE_SECRETS } from './run-cli.js';

/*
 * A sensitive workspace variable rewritten outside converge is hidden drift. An apply that updated
 * the same workspace for another reason used to send only that change and record the secret's new
 * version as converged, so the next `drift` said "No drift" with the tampered value still live. Now
 * the update sends the manifest's secret again (the plan says so), and the live secret is the
 * manifest's once more. After the shared first apply, the commands run in-process against the sandbox.
 */

describe('hidden drift on a workspace secret and an unrelated update', () => {
  const world = appliedVpcWorkspace();
  const env = world.env;
  const project = { get dir() { return world.dir(); } };
  const run = (step: CommandStep) => inProcessWith({ cwd: project.dir, env: env() }, step);
  const drifting: CommandStep = (h) => driftCommand(h, ['tfe'], {});
  const api = async (path: string, init: RequestInit = {}) => {
    const { env: sb } = world.sandbox();
    const res = await fetch(`${sb.TFE_ADDRESS}/api/v2${path}`, {
      ...init,
      headers: { authorization: `Bearer ${sb.TFE_TOKEN}`, 'content-type': 'application/vnd.api+json' },
    });
    return (await res.json()) as { data: { id: string; attributes: Record<string, unknown> } | { id: string; attributes: Record<string, unknown> }[] };
  };

  it('an update of the workspace sends the secret again, and drift is clean because the secret converged', async () => {
    const sandbox = world.sandbox();

    // Someone rewrites the secret in the UI.
    const ws = (await api(`/organizations/${sandbox.tfe.organization}/workspaces/vpc-dev`)).data as { id: string };
    const vars = (await api(`/workspaces/${ws.id}/vars`)).data as { id: string; attributes: Record<string, unknown> }[];
    const secret = vars.find((v) => v.attributes.key === 'db_password');
    expect(secret).toBeDefined();
    await api(`/workspaces/${ws.id}/vars/${secret?.id}`, { method: 'PATCH', body: JSON.stringify({ data: { type: 'vars', id: secret?.id, attributes: { value: 'set-by-hand' } } }) });

    const drift = await run(drifting);
    expect(drift.code, drift.stdout + drift.stderr).toBe(2);
    expect(drift.stdout).toContain('NoCodeWorkspace/vpc-dev');

    // An unrelated change to the same workspace.
    const file = join(project.dir, 'tfe', 'vpc.yaml');
    await writeFile(file, (await readFile(file, 'utf8')).replace('value: eu-west-1', 'value: us-east-1'));

    const plan = await run(planning({}, ['tfe']));
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(plan.stdout).toMatch(/variables\.terraform\.db_password\.value/);
    expect(plan.stdout).toContain('rewritten outside converge');
    expect(plan.stdout + plan.stderr).not.toContain(EXAMPLE_SECRETS.VPC_DB_PASSWORD);

    sandbox.log.clear();
    const apply = await run(applying({ pollInterval: '50ms' }, ['tfe']));
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    const patched = sandbox.log.writes().filter((e) => e.method === 'PATCH' && e.path.endsWith(`/vars/${secret?.id}`));
    expect(patched).toHaveLength(1);
    expect(patched[0]?.body).toContain(EXAMPLE_SECRETS.VPC_DB_PASSWORD);
    expect(apply.stdout + apply.stderr).not.toContain(EXAMPLE_SECRETS.VPC_DB_PASSWORD);

    // The live secret is the manifest's again (converge's own write), so drift is honestly clean.
    const after = await run(drifting);
    expect(after.code, after.stdout + after.stderr).toBe(0);
  });
});
