import { describe, expect, it } from 'vitest';
import { applying, planning, storyPerTest } from '../library/story.js';
import { TFE_SETTINGS, vpcModule } from './manifests.js';

/*
 * Regression: every literal workspace variable value was registered with the redactor, so a
 * workspace `api-prod` with a variable `stage: prod` printed as `NoCodeWorkspace/api-***` and
 * `apply --json` said `"name": "api-***"`. Only secret references and sensitive values are secrets. The commands'
 * own code in-process (`Story.run`), the apply's runs on the story's ManualClock.
 */

const workspace = storyPerTest();

const MANIFEST = `${TFE_SETTINGS}---
${vpcModule()}---
kind: NoCodeWorkspace
name: api-prod
spec:
  module: vpc
  project: Platform
  variables:
    - { key: stage, value: prod, category: terraform }
    - { key: db_password, value: { fromEnv: VPC_DB_PASSWORD }, category: terraform, sensitive: true }
`;

describe('a plain variable value is not a secret', () => {
  it('plan and apply --json show the workspace name whole; the sensitive value stays hidden', async () => {
    const ws = await workspace();
    await ws.write('converge.yaml', MANIFEST);
    const plan = await ws.run(planning());
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('NoCodeWorkspace/api-prod');
    expect(plan.stdout + plan.stderr).not.toContain('***');

    const apply = await ws.run(applying({ json: true }));
    expect(apply.code, apply.stderr).toBe(0);
    const all = apply.stdout + apply.stderr;
    expect(all).toContain('"name": "api-prod"');
    expect(all).not.toMatch(/api-\*\*\*/);
    expect(all).not.toContain(ws.env.VPC_DB_PASSWORD);
  });
});
