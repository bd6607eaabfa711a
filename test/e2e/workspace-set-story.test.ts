import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { plan } from '../../src/operations/index.js';
import { onClock, storyPerTest } from '../library/story.js';
import { TFE_SETTINGS } from './workspace-set-manifests.js';

/*
 * A NoCodeWorkspaceSet generates ordinary NoCodeWorkspace documents: moving a hand-written fleet into a set
 * changes nothing live (the plan is empty), `--target NoCodeWorkspaceSet/<name>` takes every member, and a
 * sensitive variable given per item keeps its secret out of the plan.
 */

const SETTINGS = TFE_SETTINGS;
const MODULE = `kind: NoCodeModule
name: vpc
spec:
  registryModule: acme/vpc/aws
  versionPin: 1.4.0
  enabled: true
`;
const written = (team: string, region: string, extra = '') => `---
kind: NoCodeWorkspace
name: vpc-${team}-${region}
spec:
  module: vpc
  project: Platform
  variables:
    - { key: region, value: ${region} }
    - { key: team, value: ${team} }${extra}
  deletion: safe
`;
const DB = `
    - { key: db_password, value: { fromEnv: SEARCH_DB_PASSWORD }, sensitive: true }`;
const FLEET = MODULE + written('payments', 'eu-west-1') + written('payments', 'us-east-1') + written('search', 'eu-west-1', DB) + written('search', 'us-east-1', DB);
const SET = `${MODULE}---
kind: NoCodeWorkspaceSet
name: vpc-fleet
spec:
  generators:
    - matrix:
        - list: [ {team: payments}, {team: search} ]
        - list: [ {region: eu-west-1}, {region: us-east-1} ]
  template:
    name: "vpc-{{ team }}-{{ region }}"
    module: vpc
    project: Platform
    variables:
      - { key: region, value: "{{ region }}" }
      - { key: team, value: "{{ team }}" }
    deletion: safe
  overrides:
    - name: vpc-search-eu-west-1
      variables: [ { key: db_password, value: { fromEnv: SEARCH_DB_PASSWORD }, sensitive: true } ]
    - name: vpc-search-us-east-1
      variables: [ { key: db_password, value: { fromEnv: SEARCH_DB_PASSWORD }, sensitive: true } ]
`;
const SECRET = 'search-db-secret-771';

describe('workspace sets against the sandbox', () => {
  const open = storyPerTest();

  it('a fleet moved from written documents into a set plans no changes', async () => {
    const story = await open({ env: { SEARCH_DB_PASSWORD: SECRET } });
    await story.write('settings.yaml', SETTINGS);
    await story.write('tfe/fleet.yaml', FLEET);
    await story.apply();
    await rm(join(story.dir, 'tfe/fleet.yaml'));
    await story.write('tfe/fleet-set.yaml', SET);
    const planned = await story.plan();
    expect(planned?.run.plan.changes.filter((c) => c.action !== 'no-op').map((c) => `${c.action} ${c.kind}/${c.name}`)).toEqual([]);
    expect(planned?.run.plan.drift).toEqual([]);
    expect(planned?.run.plan.changes.filter((c) => c.kind === 'NoCodeWorkspace').map((c) => c.name).sort()).toEqual([
      'vpc-payments-eu-west-1',
      'vpc-payments-us-east-1',
      'vpc-search-eu-west-1',
      'vpc-search-us-east-1',
    ]);
  });

  it('--target NoCodeWorkspaceSet/<name> takes every workspace the set generates, and secrets stay out of the plan', async () => {
    const story = await open({ env: { SEARCH_DB_PASSWORD: SECRET } });
    await story.write('settings.yaml', SETTINGS);
    await story.write('tfe/fleet-set.yaml', SET);
    await story.write('tfe/other.yaml', written('other', 'eu-west-1'));
    const planned = await story.plan({ targets: ['NoCodeWorkspaceSet/vpc-fleet'] });
    expect(planned?.run.plan.changes.map((c) => `${c.action} ${c.kind}/${c.name}`).sort()).toEqual([
      'create NoCodeModule/vpc',
      'create NoCodeWorkspace/vpc-payments-eu-west-1',
      'create NoCodeWorkspace/vpc-payments-us-east-1',
      'create NoCodeWorkspace/vpc-search-eu-west-1',
      'create NoCodeWorkspace/vpc-search-us-east-1',
    ]);
    expect(planned?.saved).not.toContain(SECRET);
    expect(JSON.stringify(planned?.run.plan)).not.toContain(SECRET);
    const report = await story.apply({ targets: ['NoCodeWorkspaceSet/vpc-fleet'] });
    expect(report.status).toBe('applied');
    const again = await story.plan({ targets: ['nocodeworkspaceset/vpc-fleet'] });
    expect(again?.run.plan.changes.filter((c) => c.action !== 'no-op')).toEqual([]);
    await expect(story.plan({ targets: ['NoCodeWorkspaceSet/vpc-flet'] })).rejects.toMatchObject({ code: 'cli.unknown-set', hint: 'did you mean --target NoCodeWorkspaceSet/vpc-fleet?' });
  });

  it('a live check about a generated workspace points at the template field and names the item', async () => {
    const story = await open({ env: { SEARCH_DB_PASSWORD: SECRET } });
    await story.write('settings.yaml', SETTINGS);
    await story.write('tfe/fleet-set.yaml', SET.replace('    project: Platform\n', '    project: Nowhere\n'));
    const host = story.host();
    expect(await onClock(story.clock, plan(host, { paths: ['.'] }))).toBeUndefined();
    const found = host.found.filter((d) => d.code === 'tfe.workspace.project-unknown');
    expect(found).toHaveLength(1);
    expect(found[0]?.range).toMatchObject({ file: 'tfe/fleet-set.yaml', start: { line: 18, col: 14 } });
    expect(found[0]?.detail).toContain('In NoCodeWorkspace/vpc-payments-eu-west-1, generated by NoCodeWorkspaceSet/vpc-fleet for item team=payments, region=eu-west-1.');
  });
});
