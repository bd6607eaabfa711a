import type { JsonValue } from '../../model/json.js';
import type { TfeWorkspaceSettings } from '../../kinds/no-code-workspace/intent.js';
import type { CallContext, JsonApiTransport } from './jsonapi-transport.js';
import { parseRun, parseWorkspace, type JsonApiResource, type RunWire, type WorkspaceWire } from './wire.js';

/** Attributes of `PATCH /workspaces/:id`; omitted ones keep their value (docs/reference/hcp-terraform-api.md §5). The plan's settings are sent as they are. */
export type WorkspaceUpdateBody = TfeWorkspaceSettings;

function workspacePath(id: string): string {
  return `/workspaces/${encodeURIComponent(id)}`;
}

/** The included runs of a document, by id (type strings are never checked, README "Tolerance": by their shape). */
function keepRuns(included: readonly JsonApiResource[], into: Map<string, RunWire>, what: string): void {
  for (const r of included) if (r.type === 'runs' || r.type === 'run') into.set(r.id, parseRun(r, what));
}

/** Workspaces (docs/reference/hcp-terraform-api.md §2, §5): show, list, update, delete (the create from a no-code module is that kind's endpoint). */
export class WorkspacesClient {
  constructor(private readonly api: JsonApiTransport) {}

  private byNamePath(name: string): string {
    return `/organizations/${this.api.org}/workspaces/${encodeURIComponent(name)}`;
  }

  /**
   * Show by exact name (the list's `search[name]` is fuzzy, docs/reference/hcp-terraform-api.md §5); 404 → null. `withCurrentRun`: with
   * `include=current_run` (WS, go-tfe `WSCurrentRun`), the current run in `currentRuns`.
   */
  async showWorkspace(name: string, ctx?: CallContext, currentRuns?: Map<string, RunWire>): Promise<WorkspaceWire | null> {
    const c = ctx ?? { what: `workspace ${name}` };
    const doc = await this.api.oneOrNull(this.byNamePath(name), currentRuns ? { include: 'current_run' } : undefined, c);
    if (doc === null) return null;
    if (currentRuns) keepRuns(doc.included, currentRuns, c.what);
    return parseWorkspace(doc.data, c.what);
  }

  async readWorkspace(id: string, ctx: CallContext): Promise<WorkspaceWire> {
    const { data } = await this.api.one({ method: 'GET', path: workspacePath(id) }, ctx);
    return parseWorkspace(data, ctx.what);
  }

  /**
   * The workspace and its current run in one request (`include=current_run`): with its `latest-run`, what a run
   * check needs without the rationed runs list (run-state.ts).
   */
  async readWorkspaceWithCurrentRun(id: string, ctx: CallContext): Promise<{ workspace: WorkspaceWire; current: RunWire | null }> {
    const { data, included } = await this.api.one({ method: 'GET', path: workspacePath(id), query: { include: 'current_run' } }, ctx);
    const workspace = parseWorkspace(data, ctx.what);
    const runs = new Map<string, RunWire>();
    keepRuns(included, runs, ctx.what);
    return { workspace, current: workspace.currentRunId !== null ? (runs.get(workspace.currentRunId) ?? null) : null };
  }

  /**
   * The organization's workspaces, one page (at 100) at a time, mapped; breaking out stops paging. With
   * `currentRuns`, each page includes its workspaces' current runs (`include=current_run`), kept there by id.
   */
  async *workspacePages(currentRuns?: Map<string, RunWire>): AsyncGenerator<{ workspaces: WorkspaceWire[]; pageNumber: number; totalPages: number | null }> {
    const what = `workspaces of ${this.api.organization}`;
    for await (const page of this.api.pages(`/organizations/${this.api.org}/workspaces`, currentRuns ? { include: 'current_run' } : {}, { what })) {
      if (currentRuns) keepRuns(page.included, currentRuns, what);
      yield { workspaces: page.data.map((r) => parseWorkspace(r, what)), pageNumber: page.pageNumber, totalPages: page.totalPages };
    }
  }

  /** All the organization's workspaces. */
  async listWorkspaces(): Promise<WorkspaceWire[]> {
    const all: WorkspaceWire[] = [];
    for await (const page of this.workspacePages()) all.push(...page.workspaces);
    return all;
  }

  /** `PATCH /workspaces/:id`; omitted attributes keep their value. The answer is not used: any 2xx is success. */
  async updateWorkspace(id: string, body: WorkspaceUpdateBody, ctx: CallContext): Promise<void> {
    const attributes: Record<string, JsonValue> = {};
    if (body.name !== undefined) attributes.name = body.name;
    if (body.description !== undefined) attributes.description = body.description;
    if (body.executionMode !== undefined) {
      attributes['execution-mode'] = body.executionMode;
      // Reference §5: execution-mode must be sent with its overwrite flag set, or the workspace
      // keeps inheriting the project default.
      attributes['setting-overwrites'] = { 'execution-mode': true, 'agent-pool': true };
    }
    if (body.agentPoolId !== undefined) attributes['agent-pool-id'] = body.agentPoolId;
    if (body.autoApply !== undefined) attributes['auto-apply'] = body.autoApply;
    if (body.sourceName !== undefined) attributes['source-name'] = body.sourceName;
    if (body.sourceUrl !== undefined) attributes['source-url'] = body.sourceUrl;
    const data: Record<string, JsonValue> = { type: 'workspaces', attributes };
    if (body.projectId !== undefined) data.relationships = { project: { data: { id: body.projectId, type: 'projects' } } };
    await this.api.send({ method: 'PATCH', path: workspacePath(id), body: { data } }, ctx);
  }

  /** `POST /workspaces/:id/actions/safe-delete` (204; 409 while it manages resources). 404 → false (already gone). */
  async safeDeleteWorkspace(id: string, ctx: CallContext): Promise<boolean> {
    // Deleting twice is harmless: the second answers 404, which means done.
    return this.api.sendOrGone({ method: 'POST', path: `${workspacePath(id)}/actions/safe-delete`, idempotent: true }, ctx);
  }

  /** `DELETE /workspaces/:id` (force; 403 unless allowed). 404 → false. */
  async forceDeleteWorkspace(id: string, ctx: CallContext): Promise<boolean> {
    return this.api.sendOrGone({ method: 'DELETE', path: workspacePath(id) }, ctx);
  }
}
