import { dataOf, relationshipId, requireType } from './body.js';
import { ok, type Ctx, type Reply, type Route } from './context.js';
import { invalid, notFound } from './errors.js';
import { listReply, requireOrg } from './list.js';
import type { Run } from './model.js';
import { runResource } from './run-wire.js';
import { findWorkspace } from './workspace-lookup.js';

/**
 * Runs: read, list per workspace and per organization, create, apply, discard, cancel (RUN; docs/reference/hcp-terraform-api.md
 * §3, §5). Both lists are rationed at 30 a minute per token (rate-limit.ts, server.ts).
 */

export function findRun(ctx: Ctx, id: string | undefined): Run {
  const run = ctx.store.runs.get(id ?? '');
  if (!run) throw notFound();
  return run;
}

/** Actions answer 202 with no body (RUN). */
const accepted = (): Reply => ({ status: 202 });

function createRun(ctx: Ctx): Reply {
  const data = dataOf(ctx.body);
  requireType(data, ['runs']);
  const wsId = relationshipId(data, 'workspace', ['workspaces', 'workspace']);
  if (wsId === undefined) throw invalid('/data/relationships/workspace', 'workspace relationship is required');
  const ws = findWorkspace(ctx, wsId);
  const attrs = data.object('attributes');
  const isDestroy = attrs?.bool('is-destroy') ?? false;
  const autoApply = attrs?.bool('auto-apply') ?? ws.autoApply;
  const message = attrs?.string('message', { nullable: true }) ?? 'Queued manually via the Terraform Enterprise API';
  const run = ctx.engine.create(ws, { kind: 'normal', isDestroy, message, autoApply });
  return ok({ data: runResource(ctx, run) }, 201);
}

export const runRoutes: Route[] = [
  { method: 'GET', pattern: '/runs/:id', handler: (ctx, p) => ok({ data: runResource(ctx, findRun(ctx, p.id)) }) },
  {
    method: 'GET',
    pattern: '/workspaces/:id/runs',
    handler: (ctx, p) => {
      const ws = findWorkspace(ctx, p.id);
      // Newest first (RUN).
      const runs = ctx.store.runsOf(ws.id).reverse();
      return listReply(ctx, runs, (r) => runResource(ctx, r));
    },
  },
  {
    // "List Runs in an Organization" (RUN): every workspace's runs, newest first; its filters are left out (SPEC.md).
    method: 'GET',
    pattern: '/organizations/:org/runs',
    handler: (ctx, p) => {
      requireOrg(ctx, p.org);
      const runs = [...ctx.store.runs.values()].reverse();
      return listReply(ctx, runs, (r) => runResource(ctx, r));
    },
  },
  // Organization tokens cannot start runs (docs/reference/hcp-terraform-api.md §8, TOK); the sandbox also keeps them from applying one.
  { method: 'POST', pattern: '/runs', handler: createRun, noOrgToken: true },
  {
    method: 'POST',
    pattern: '/runs/:id/actions/apply',
    noOrgToken: true,
    handler: (ctx, p) => {
      ctx.engine.confirm(findRun(ctx, p.id));
      return accepted();
    },
  },
  {
    method: 'POST',
    pattern: '/runs/:id/actions/discard',
    handler: (ctx, p) => {
      ctx.engine.discard(findRun(ctx, p.id));
      return accepted();
    },
  },
  {
    method: 'POST',
    pattern: '/runs/:id/actions/cancel',
    handler: (ctx, p) => {
      ctx.engine.cancel(findRun(ctx, p.id));
      return accepted();
    },
  },
];
