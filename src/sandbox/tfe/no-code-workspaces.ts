import { dataOf, requireType } from './body.js';
import type { Ctx, Reply, Route } from './context.js';
import { notFound, unprocessable } from './errors.js';
import { findNoCode } from './no-code-modules.js';
import { checkNewVars, newVar, readVarsRelationship } from './vars.js';
import { readWorkspaceInput } from './workspace-input.js';
import { newWorkspace, workspaceReply } from './workspaces.js';

/** `POST /no-code-modules/:id/workspaces` (docs/reference/hcp-terraform-api.md §2). */

// The docs send `workspaces`, go-tfe `no-code-module-workspace` (docs/reference/hcp-terraform-api.md §2, "Surprises" 3).
export const NO_CODE_WORKSPACE_TYPES = ['workspaces', 'no-code-module-workspace'];

function create(ctx: Ctx, p: Record<string, string>): Reply {
  const ncm = findNoCode(ctx, p.id);
  const m = ctx.store.modules.get(ncm.registryModuleId);
  if (!m) throw notFound();
  const data = dataOf(ctx.body);
  requireType(data, NO_CODE_WORKSPACE_TYPES);
  // A no-code workspace runs `remote` or `agent` (docs/reference/hcp-terraform-api.md §2).
  const input = readWorkspaceInput(data, ['remote', 'agent']);
  const vars = readVarsRelationship(data) ?? [];
  // Disabled modules cannot be deployed (docs/reference/hcp-terraform-api.md "Spec versus real service", disabled modules).
  if (!ncm.enabled) throw unprocessable('No-code provisioning is not enabled for this module');
  const ws = newWorkspace(ctx, input, { moduleId: ncm.id, registryModuleId: m.id, version: ncm.versionPin });
  checkNewVars([], vars);
  ws.vars = vars.map((v) => newVar(ctx, v));
  ctx.store.workspaces.set(ws.id, ws);
  // The first run is queued on creation; the response may still show current-run null (docs/reference/hcp-terraform-api.md §2, UG).
  ctx.engine.create(ws, { kind: 'normal', isDestroy: false, message: input.message ?? 'Triggered via no-code provisioning', autoApply: ws.autoApply });
  // 200, not 201 (docs/reference/hcp-terraform-api.md §2, "Surprises" 1).
  return workspaceReply(ctx, ws, 200);
}

export const noCodeWorkspaceRoutes: Route[] = [{ method: 'POST', pattern: '/no-code-modules/:id/workspaces', handler: create, noOrgToken: true }];
