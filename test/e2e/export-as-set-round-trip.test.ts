import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { exportText } from '../../src/export/index.js';
import { exportObjects } from '../../src/operations/index.js';
import { onClock, storyPerTest } from '../library/story.js';
import { TFE_SETTINGS, VPC_MODULE } from './workspace-set-manifests.js';

/*
 * `converge export --as-set` writes the workspaces of a module that has two or more as one NoCodeWorkspaceSet:
 * what they share in the template, the values that differ as item parameters, the rest as overrides. Read back,
 * the set generates the same workspaces, so the plan of the export shows no changes.
 */

const SETTINGS = TFE_SETTINGS;
const ws = (name: string, module: string, region: string, extra = '') => `---
kind: NoCodeWorkspace
name: ${name}
spec:
  module: ${module}
  project: Platform
  variables:
    - { key: region, value: ${region} }
    - { key: size, value: "1.10" }${extra}
`;
const FLEET = `${VPC_MODULE}---
kind: NoCodeModule
name: lambda
spec:
  registryModule: acme/lambda/aws
${ws('vpc-a', 'vpc', 'eu-west-1')}${ws('vpc-b', 'vpc', 'us-east-1', '\n    - { key: TF_LOG, value: debug, category: env }\n  description: the odd one')}${ws('vpc-c', 'vpc', 'eu-west-1')}${ws('lambda-a', 'lambda', 'eu-west-1')}`;

describe('export --as-set', () => {
  const open = storyPerTest();

  it('writes a fleet as one set per module that the plan reads back with no changes', async () => {
    const story = await open();
    await story.write('settings.yaml', SETTINGS);
    await story.write('tfe/fleet.yaml', FLEET);
    await story.apply();

    const run = await onClock(story.clock, exportObjects(story.host(), { kinds: ['NoCodeModule', 'NoCodeWorkspace'] }));
    const text = exportText(run, { asSet: true });
    const docs = parseAllDocuments(text).map((d) => d.toJS() as { kind: string; name: string; spec: Record<string, unknown> });
    expect(docs.map((d) => `${d.kind}/${d.name}`)).toEqual(['NoCodeModule/lambda', 'NoCodeModule/vpc', 'NoCodeWorkspace/lambda-a', 'NoCodeWorkspaceSet/vpc-workspaces']);
    const set = docs[3];
    expect(set?.spec).toMatchObject({
      generators: [{ list: [{ name: 'vpc-a', region: 'eu-west-1' }, { name: 'vpc-b', region: 'us-east-1' }, { name: 'vpc-c', region: 'eu-west-1' }] }],
      template: { name: '{{ name }}', module: 'vpc', project: 'Platform', variables: [{ key: 'region', value: '{{ region }}' }, { key: 'size', value: '1.10' }] },
      overrides: [{ name: 'vpc-b', description: 'the odd one', variables: [{ key: 'TF_LOG', value: 'debug', category: 'env' }] }],
    });

    await rm(join(story.dir, 'tfe/fleet.yaml'));
    await story.write('tfe/exported.yaml', text);
    const planned = await story.plan();
    expect(planned?.run.plan.changes.filter((c) => c.action !== 'no-op').map((c) => `${c.action} ${c.kind}/${c.name}`)).toEqual([]);
    expect(planned?.run.plan.changes.map((c) => `${c.kind}/${c.name}`).sort()).toEqual([
      'NoCodeModule/lambda',
      'NoCodeModule/vpc',
      'NoCodeWorkspace/lambda-a',
      'NoCodeWorkspace/vpc-a',
      'NoCodeWorkspace/vpc-b',
      'NoCodeWorkspace/vpc-c',
    ]);
  });
});
