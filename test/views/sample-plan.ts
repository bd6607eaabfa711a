import type { ApplyResult } from '../../src/engine/types.js';
import { ConvergeError } from '../../src/diagnostics/errors.js';
import { summarize, type Change, type Plan } from '../../src/plan/types.js';

/** A plan with every action, every drift cause, a secret, and diagnostics: plain data, as the engine makes it. */
export function samplePlan(): Plan {
  const changes: Change[] = [
    {
      kind: 'NoCodeWorkspace',
      name: 'old-ws',
      action: 'delete',
      id: 'ws-123',
      reasons: [{ code: 'deletion-policy', policy: 'destroy' }],
      fields: [{ path: 'project', before: 'Platform', after: null, sensitive: false }],
      notes: [],
      deletion: 'destroy',
    },
    {
      kind: 'NomadBindingRule',
      name: 'legacy',
      action: 'delete',
      id: '2b6c1d3e-0000-4000-8000-000000000001',
      reasons: [{ code: 'removed' }],
      fields: [{ path: 'bindName', before: 'ops', after: null, sensitive: false }],
      notes: [],
    },
    {
      kind: 'NomadAuthMethod',
      name: 'gh',
      action: 'update',
      id: 'gh',
      reasons: [{ code: 'differs', paths: ['maxTokenTtl', 'config.claimMappings.mail'] }],
      fields: [
        { path: 'config.claimMappings.email', before: 'email', after: null, sensitive: false },
        { path: 'config.claimMappings.mail', before: null, after: 'email', sensitive: false },
        { path: 'maxTokenTtl', before: '30m', after: '1h', sensitive: false },
      ],
      notes: [],
    },
    {
      kind: 'NomadAuthMethod',
      name: 'okta',
      action: 'create',
      reasons: [{ code: 'new' }],
      fields: [
        { path: 'config.boundAudiences', before: null, after: ['0oa1'], sensitive: false },
        { path: 'config.oidcClientSecret', before: null, after: '(sensitive)', sensitive: true },
        { path: 'maxTokenTtl', before: null, after: '1h', sensitive: false },
        { path: 'type', before: null, after: 'OIDC', sensitive: false },
      ],
      notes: [{ code: 'secret-invisible' }],
    },
    {
      kind: 'NomadAuthMethod',
      name: 'sso',
      action: 'update',
      id: 'sso',
      reasons: [{ code: 'secret-changed', paths: ['config.oidcClientSecret'] }],
      fields: [{ path: 'config.oidcClientSecret', before: '(sensitive)', after: '(sensitive)', sensitive: true }],
      notes: [{ code: 'secret-invisible' }],
    },
    {
      kind: 'NoCodeModule',
      name: 'vpc',
      action: 'update',
      id: 'nocode-9',
      reasons: [{ code: 'differs', paths: ['versionPin'] }],
      fields: [{ path: 'versionPin', before: '1.4.0', after: '1.5.0', sensitive: false }],
      notes: [],
    },
    {
      kind: 'NoCodeWorkspace',
      name: 'vpc-dev',
      action: 'upgrade',
      id: 'ws-456',
      reasons: [{ code: 'module-version', module: 'vpc', from: '1.4.0', to: '1.5.0' }],
      fields: [],
      notes: [{ code: 'resumes-upgrade-run', runId: 'run-7', phase: 'planned' }],
      upgrade: { from: '1.4.0', to: '1.5.0' },
    },
    { kind: 'NomadAuthMethod', name: 'quiet', action: 'no-op', id: 'quiet', fields: [], notes: [{ code: 'secret-invisible' }] },
  ];
  return {
    formatVersion: '1.0',
    createdAt: '2026-01-02T03:04:05.000Z',
    changes,
    drift: [
      {
        kind: 'NomadAuthMethod',
        name: 'gh',
        cause: 'outside',
        fields: [{ path: 'tokenLocality', before: 'local', after: 'global', sensitive: false }],
        detail: { code: 'changed-outside' },
      },
      {
        kind: 'NomadAuthMethod',
        name: 'gh',
        cause: 'pending',
        fields: [{ path: 'maxTokenTtl', before: '30m', after: '1h', sensitive: false }],
        detail: { code: 'manifest-changed' },
      },
      {
        kind: 'NomadAuthMethod',
        name: 'sso',
        cause: 'hidden',
        fields: [],
        detail: { code: 'hidden-change', hidden: { code: 'secret-hash-moved' } },
      },
      {
        kind: 'NomadBindingRule',
        name: 'gone',
        cause: 'missing',
        fields: [],
        detail: { code: 'gone-live', recreate: false },
      },
    ],
    diagnostics: [{ severity: 'warning', code: 'plan.target-dependency', summary: 'x depends on y' }],
    summary: summarize(changes),
  };
}

export function emptyPlan(): Plan {
  return { formatVersion: '1.0', createdAt: '2026-01-02T03:04:05.000Z', changes: [], drift: [], diagnostics: [], summary: summarize([]) };
}

export function sampleResult(): ApplyResult {
  return {
    outcomes: [
      { kind: 'NomadAuthMethod', name: 'okta', action: 'create', status: 'succeeded' },
      { kind: 'NoCodeModule', name: 'vpc', action: 'update', status: 'succeeded', message: 'pinned to 1.5.0' },
      {
        kind: 'NoCodeWorkspace',
        name: 'vpc-dev',
        action: 'upgrade',
        status: 'failed',
        message: 'run run-Ab12 errored',
        error: new ConvergeError('tfe.run-errored', 'run run-Ab12 errored', { source: 'remote', hint: 'open the run to see why' }),
        runUrl: 'https://app.terraform.io/app/acme/workspaces/vpc-dev/runs/run-Ab12',
      },
      { kind: 'NoCodeWorkspace', name: 'vpc-prod', action: 'upgrade', status: 'skipped', message: 'the canary upgrade failed' },
      {
        kind: 'NoCodeWorkspace',
        name: 'vpc-stage',
        action: 'upgrade',
        status: 'awaiting-confirmation',
        message: 'confirm the run in HCP Terraform',
        runUrl: 'https://app.terraform.io/app/acme/workspaces/vpc-stage/runs/run-Cd34',
      },
    ],
    counts: { succeeded: 2, failed: 1, skipped: 1, awaiting: 1 },
  };
}
