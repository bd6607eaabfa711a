import type { JsonValue } from '../../../model/json.js';
import type { CallContext, JsonApiTransport } from '../../../providers/tfe/jsonapi-transport.js';
import { varAttributes, type VarBody } from '../../../providers/tfe/variables-client.js';
import { parseWorkspace, type WorkspaceWire } from '../../../providers/tfe/wire.js';
import type { TfeWorkspaceCreate } from '../intent.js';

/*
 * The one endpoint only a NoCodeWorkspace uses (the workspace, variable and run resources are the provider's
 * resource clients), and how a 422's request pointers map back to the workspace's manifest.
 */

/** Request pointers → manifest pointers (the attribute names of the create and update bodies). */
export const POINTERS: Record<string, string> = {
  // The workspace name is the document's `name`.
  '/data/attributes/name': '/name',
  '/data/attributes/description': '/spec/description',
  '/data/attributes/execution-mode': '/spec/executionMode',
  '/data/attributes/agent-pool-id': '/spec/agentPoolId',
  '/data/attributes/auto-apply': '/spec/autoApply',
  '/data/attributes/auto_apply': '/spec/autoApply',
  '/data/attributes/source-name': '/spec/sourceName',
  '/data/attributes/source-url': '/spec/sourceUrl',
  '/data/relationships/project': '/spec/project',
  // Vars are sent in manifest order, so index i of the request is spec.variables[i].
  '/data/relationships/vars/data': '/spec/variables',
  '/data/relationships/vars': '/spec/variables',
};

/**
 * `POST /no-code-modules/:id/workspaces` (docs/reference/hcp-terraform-api.md §2): the create the plan decided (plan/intent.ts),
 * with every variable's value in place of the intent's references. Derived, not declared again: a field
 * added to the create intent is a field of this body.
 */
export type WorkspaceCreateBody = Omit<TfeWorkspaceCreate, 'module' | 'moduleId' | 'variables'> & { vars: VarBody[] };

/** `POST /no-code-modules/:id/workspaces` (200, docs/reference/hcp-terraform-api.md §2). Vars are sent in manifest order. */
export async function createNoCodeWorkspace(api: JsonApiTransport, moduleId: string, body: WorkspaceCreateBody, ctx: CallContext): Promise<WorkspaceWire> {
  const attributes: Record<string, JsonValue> = {
    name: body.name,
    description: body.description,
    'execution-mode': body.executionMode,
    // NC documents `auto_apply` for this endpoint; go-tfe and every response use `auto-apply`
    // (docs/reference/hcp-terraform-api.md §2). Both are sent so either reading takes it.
    'auto-apply': body.autoApply,
    auto_apply: body.autoApply,
  };
  // `agent-pool-id` only with agent mode: forbidden for remote (docs/reference/hcp-terraform-api.md §2, §5).
  if (body.agentPoolId !== null) attributes['agent-pool-id'] = body.agentPoolId;
  if (body.sourceName !== null) attributes['source-name'] = body.sourceName;
  if (body.sourceUrl !== null) attributes['source-url'] = body.sourceUrl;
  const relationships: Record<string, JsonValue> = {
    vars: { data: body.vars.map((v) => ({ type: 'vars', attributes: varAttributes(v) })) },
  };
  if (body.projectId !== null) relationships.project = { data: { id: body.projectId, type: 'project' } };
  const { data } = await api.one(
    {
      method: 'POST',
      path: `/no-code-modules/${encodeURIComponent(moduleId)}/workspaces`,
      body: { data: { type: 'workspaces', attributes, relationships } },
      // Not idempotent: after a lost reply, a workspace of that name is the one the attempt made (docs/architecture.md "Rules the code keeps").
      readBack: () => api.readBackGet(`/organizations/${api.org}/workspaces/${encodeURIComponent(body.name)}`),
    },
    { ...ctx, pointers: { ...POINTERS, ...ctx.pointers }, refusesOrganizationTokens: true },
  );
  return parseWorkspace(data, ctx.what);
}
