import type { Ctx } from './context.js';
import type { Run } from './model.js';

/** The runs document (RUN; docs/reference/hcp-terraform-api.md §3, §5). */
export function runResource(ctx: Ctx, run: Run): unknown {
  const e = ctx.engine;
  return {
    id: run.id,
    type: 'runs',
    attributes: {
      status: run.status,
      'status-timestamps': { ...run.timestamps },
      'is-destroy': run.isDestroy,
      'has-changes': run.hasChanges,
      'auto-apply': run.autoApply,
      message: run.message,
      source: run.kind === 'upgrade' ? 'tfe-workspace-upgrade' : 'tfe-api',
      'trigger-reason': 'manual',
      'created-at': run.createdAt,
      'plan-only': false,
      refresh: true,
      'refresh-only': false,
      'allow-empty-apply': false,
      'replace-addrs': [],
      'target-addrs': null,
      'terraform-version': ctx.store.workspaces.get(run.workspaceId)?.terraformVersion ?? ctx.settings.terraformVersion,
      actions: {
        'is-cancelable': e.isCancelable(run),
        'is-confirmable': e.isConfirmable(run),
        'is-discardable': e.isDiscardable(run),
        'is-force-cancelable': false,
      },
      permissions: { 'can-apply': true, 'can-cancel': true, 'can-discard': true, 'can-force-execute': true, 'can-force-cancel': true },
    },
    relationships: {
      workspace: { data: { id: run.workspaceId, type: 'workspaces' } },
    },
    links: { self: `/api/v2/runs/${run.id}` },
  };
}

/** The UI address of a run, given as an upgrade's `plan-url` (docs/reference/hcp-terraform-api.md §3; clients must not parse it). */
export function planUrl(ctx: Ctx, run: Run): string {
  const ws = ctx.store.workspaces.get(run.workspaceId);
  return `${ctx.url.origin}/app/${ctx.store.organization}/workspaces/${encodeURIComponent(ws?.name ?? run.workspaceId)}/runs/${run.id}`;
}
