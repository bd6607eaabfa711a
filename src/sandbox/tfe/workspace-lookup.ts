import type { Ctx } from './context.js';
import { notFound } from './errors.js';
import type { Workspace } from './model.js';
import { requireOrg } from './list.js';

export function findWorkspace(ctx: Ctx, id: string | undefined): Workspace {
  const ws = ctx.store.workspaces.get(id ?? '');
  if (!ws) throw notFound();
  return ws;
}

export function findWorkspaceByName(ctx: Ctx, org: string | undefined, name: string | undefined): Workspace {
  requireOrg(ctx, org);
  const ws = ctx.store.workspaceByName(name ?? '');
  if (!ws) throw notFound();
  return ws;
}
