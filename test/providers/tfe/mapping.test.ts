import { describe, expect, it } from 'vitest';
import { diffFields } from '../../../src/plan/diff.js';
import {
  compareVersions,
  parseSourceModuleId,
  runUrl,
} from '../../../src/providers/tfe/mapping.js';
import type { VarWire, WorkspaceWire } from '../../../src/providers/tfe/wire.js';
import { desiredVariables, desiredWorkspaceFields, liveVariables, liveWorkspaceFields, varValuePath, variableIds } from '../../../src/kinds/no-code-workspace/remote/mapping.js';
import { desiredModuleFields, latestVersion, liveModuleFields, variableOptionsMap } from '../../../src/kinds/no-code-module/remote/mapping.js';

function ws(over: Partial<WorkspaceWire> = {}): WorkspaceWire {
  return {
    id: 'ws-1',
    name: 'vpc-dev',
    description: null,
    executionMode: 'remote',
    autoApply: false,
    sourceName: null,
    sourceUrl: null,
    sourceModuleId: 'private/acme/vpc/aws/1.4.0',
    noCodeUpgradeAvailable: false,
    projectId: 'prj-1',
    agentPoolId: null,
    currentRunId: null,
    noCodeModuleVersionId: null,
    locked: false,
    updatedAt: null,
    ...over,
  };
}

function v(key: string, over: Partial<VarWire> = {}): VarWire {
  return { id: `var-${key}`, key, value: 'x', category: 'terraform', hcl: false, sensitive: false, description: null, versionId: null, ...over };
}

describe('versions', () => {
  it('orders semver numerically, pre-releases before their release', () => {
    expect(['1.10.0', '1.9.0', '1.10.0-rc1', '2.0.0'].sort(compareVersions)).toEqual(['1.9.0', '1.10.0-rc1', '1.10.0', '2.0.0']);
  });
  it('latest is the highest ok version, skipping versions still ingesting or failed', () => {
    expect(
      latestVersion([
        { version: '1.3.0', status: 'ok' },
        { version: '1.5.0', status: 'reg_ingressing' },
        { version: '1.4.0', status: 'ok' },
        { version: '1.6.0', status: 'clone_failed' },
      ]),
    ).toBe('1.4.0');
    expect(latestVersion([])).toBeNull();
    expect(latestVersion([{ version: '2.0.0-beta', status: 'ok' }])).toBe('2.0.0-beta');
  });
  it('parses source-module-id and rejects odd shapes', () => {
    expect(parseSourceModuleId('private/acme/vpc/aws/1.4.0')).toMatchObject({ path: 'acme/vpc/aws', version: '1.4.0' });
    expect(parseSourceModuleId(null)).toBeNull();
    expect(parseSourceModuleId('acme/vpc/aws')).toBeNull();
  });
});

describe('no-code module normalisation', () => {
  it('variable options compare as a set keyed by name; options keep their order; omitted = []', () => {
    const a = variableOptionsMap([
      { variableName: 'region', variableType: 'string', options: ['b', 'a'] },
      { variableName: 'az', variableType: 'string' },
    ]);
    const b = variableOptionsMap([
      { id: 'ncvaropt-2', variableName: 'az', variableType: 'string', options: null },
      { id: 'ncvaropt-1', variableName: 'region', variableType: 'string', options: ['b', 'a'] },
    ]);
    expect(diffFields({ o: a }, { o: b })).toEqual([]);
    const reordered = variableOptionsMap([{ variableName: 'region', variableType: 'string', options: ['a', 'b'] }]);
    expect(diffFields({ o: a }, { o: reordered }).map((f) => f.path)).toEqual(['o.az', 'o.region.options']);
  });
  it('an empty live pin means the latest version; enabled defaults to true', () => {
    const desired = desiredModuleFields({ registryModule: 'acme/vpc/aws' }, '1.5.0');
    const live = liveModuleFields({ enabled: null, versionPin: '' }, [], 'acme/vpc/aws', '1.5.0');
    expect(diffFields(live, desired)).toEqual([]);
    expect(desired.enabled).toBe(true);
  });
});

describe('workspace normalisation', () => {
  const spec = {
    module: 'vpc',
    project: 'Platform',
    variables: [
      { key: 'region', value: 'eu-west-1' },
      { key: 'db_password', value: { fromEnv: 'X' }, sensitive: true },
      { key: 'TF_LOG', value: 'debug', category: 'env' as const, description: 'logs' },
      { key: 'count', value: 3 as unknown as string },
    ],
  };
  const managed = new Set(['terraform:region', 'terraform:db_password', 'env:TF_LOG', 'terraform:count']);
  const secretIds = new Set(['terraform:db_password']);

  it('desired equals live for a converged workspace: description null vs "", defaults, numbers as text, secrets absent', () => {
    const desired = desiredWorkspaceFields(spec, { moduleVersion: '1.4.0', project: 'Platform' });
    const live = liveWorkspaceFields(ws(), {
      module: 'vpc',
      project: 'Platform',
      vars: [
        v('region', { value: 'eu-west-1' }),
        v('db_password', { value: null, sensitive: true }),
        v('TF_LOG', { value: 'debug', category: 'env', description: 'logs' }),
        v('count', { value: '3' }),
        // Someone else's variable: not converge's, not shown.
        v('other', { value: 'theirs' }),
      ],
      managed,
      secretIds,
      deletion: 'safe',
    });
    expect(diffFields(live, desired)).toEqual([]);
    expect(JSON.stringify(desired)).not.toContain('fromEnv');
  });

  it('paths of variable changes are category.key.attribute; the secret path matches DesiredView.secrets', () => {
    const desired = desiredVariables([{ key: 'region', value: 'us-east-1' }]);
    const live = liveVariables([v('region', { value: 'eu-west-1' })], new Set(['terraform:region']), new Set());
    expect(diffFields({ variables: live }, { variables: desired }).map((f) => f.path)).toEqual(['variables.terraform.region.value']);
    expect(varValuePath('terraform', 'db_password')).toBe('variables.terraform.db_password.value');
    expect(variableIds({ terraform: { a: {}, b: {} }, env: { C: {} } })).toEqual(['env:C', 'terraform:a', 'terraform:b']);
  });

  it('a secret-referenced value is never in live fields, even when the service returns it', () => {
    const live = liveVariables([v('token', { value: 'plain-but-secret' })], new Set(['terraform:token']), new Set(['terraform:token']));
    expect(JSON.stringify(live)).not.toContain('plain-but-secret');
  });

  it('project is compared only when named; version comes from source-module-id; agent pool from the relationship', () => {
    const desired = desiredWorkspaceFields({ module: 'vpc', executionMode: 'agent', agentPoolId: 'apool-1' }, { moduleVersion: '1.5.0' });
    expect(desired).not.toHaveProperty('project');
    const live = liveWorkspaceFields(ws({ executionMode: 'agent', agentPoolId: 'apool-1' }), {
      module: 'vpc',
      project: undefined,
      vars: [],
      managed: new Set(),
      secretIds: new Set(),
      deletion: 'safe',
    });
    expect(diffFields(live, desired)).toEqual([{ path: 'moduleVersion', before: '1.4.0', after: '1.5.0', sensitive: false }]);
  });

  it('run URLs are built from the address, never parsed from plan-url', () => {
    expect(runUrl('https://tfe.example.com/', 'acme', 'vpc-dev', 'run-1')).toBe('https://tfe.example.com/app/acme/workspaces/vpc-dev/runs/run-1');
  });
});
