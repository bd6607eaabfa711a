import { relationshipId, type Fields } from './body.js';
import type { Ctx } from './context.js';
import { invalid } from './errors.js';
import type { Workspace } from './model.js';

/** Reading and checking workspace attributes on create and update (docs/reference/hcp-terraform-api.md §2, §5). */

export interface WorkspaceInput {
  name?: string;
  description?: string | null;
  executionMode?: 'remote' | 'local' | 'agent';
  agentPoolId?: string | null;
  autoApply?: boolean;
  sourceName?: string | null;
  sourceUrl?: string | null;
  terraformVersion?: string;
  projectId?: string;
  message?: string;
}

const NAME = /^[A-Za-z0-9_-]+$/;

export function readWorkspaceInput(data: Fields, modes: readonly string[]): WorkspaceInput {
  const attrs = data.object('attributes');
  const out: WorkspaceInput = {};
  if (attrs) {
    const name = attrs.string('name');
    if (name !== undefined && name !== null) out.name = name;
    const description = attrs.string('description', { nullable: true });
    if (description !== undefined) out.description = description;
    const mode = attrs.string('execution-mode');
    if (mode !== undefined && mode !== null) {
      if (!modes.includes(mode)) throw invalid(attrs.at('execution-mode'), `Execution mode must be one of: ${modes.join(', ')}`);
      out.executionMode = mode as WorkspaceInput['executionMode'];
    }
    const pool = attrs.string('agent-pool-id', { nullable: true });
    if (pool !== undefined) out.agentPoolId = pool;
    // The docs spell it `auto_apply`, go-tfe `auto-apply` (docs/reference/hcp-terraform-api.md §2): accept both.
    const autoApply = attrs.bool('auto-apply') ?? attrs.bool('auto_apply');
    if (autoApply !== undefined) out.autoApply = autoApply;
    const sourceName = attrs.string('source-name', { nullable: true });
    if (sourceName !== undefined) out.sourceName = sourceName;
    const sourceUrl = attrs.string('source-url', { nullable: true });
    if (sourceUrl !== undefined) out.sourceUrl = sourceUrl;
    const tf = attrs.string('terraform-version');
    if (tf) out.terraformVersion = tf;
    const message = attrs.string('message', { nullable: true });
    if (message) out.message = message;
  }
  // Request samples use `project`, responses `projects` (reference "Surprises" 3).
  const projectId = relationshipId(data, 'project', ['project', 'projects']);
  if (projectId !== undefined) out.projectId = projectId;
  return out;
}

/** Letters, digits, `-`, `_`; unique in the organization (docs/reference/hcp-terraform-api.md §2; §8 quotes the 422). */
export function checkName(ctx: Ctx, name: string | undefined, selfId?: string): string {
  const pointer = '/data/attributes/name';
  if (name === undefined || name === '') throw invalid(pointer, "Name can't be blank");
  if (!NAME.test(name)) throw invalid(pointer, "Name may only contain letters, numbers, '-', and '_'");
  if (name.length > 90) throw invalid(pointer, 'Name is too long (maximum is 90 characters)');
  const other = ctx.store.workspaceByName(name);
  if (other && other.id !== selfId) throw invalid(pointer, 'Name has already been taken');
  return name;
}

export function checkProject(ctx: Ctx, id: string | undefined): string {
  if (id === undefined) return ctx.store.defaultProject.id;
  if (!ctx.store.projects.has(id)) throw invalid('/data/relationships/project/data/id', 'Project not found');
  return id;
}

/**
 * `agent-pool-id` is required with execution mode `agent`, must name a pool of the organization, and must not
 * be given for other modes (docs/reference/hcp-terraform-api.md §2, §5). Returns the resulting mode and pool.
 */
export function resolveExecution(
  ctx: Ctx,
  input: WorkspaceInput,
  current?: Pick<Workspace, 'executionMode' | 'agentPoolId'>,
): { executionMode: Workspace['executionMode']; agentPoolId: string | null } {
  const pointer = '/data/attributes/agent-pool-id';
  const mode = input.executionMode ?? current?.executionMode ?? 'remote';
  if (mode !== 'agent') {
    if (input.agentPoolId) throw invalid(pointer, 'Agent pool must not be given unless execution mode is agent');
    return { executionMode: mode, agentPoolId: null };
  }
  const pool = input.agentPoolId !== undefined ? input.agentPoolId : (current?.agentPoolId ?? null);
  if (!pool) throw invalid(pointer, 'Agent pool is required when execution mode is agent');
  if (!ctx.store.agentPools.has(pool)) throw invalid(pointer, 'Agent pool not found in this organization');
  return { executionMode: mode, agentPoolId: pool };
}
