import type { HttpResponse } from '../../http/types.js';
import type { CallContext, JsonApiTransport } from './jsonapi-transport.js';
import { showsConfirmed } from './read-back.js';
import { parseListDocument, parseRun, parseWorkspaceUpgrade, type RunWire, type WorkspaceUpgradeWire } from './wire.js';

function runPath(id: string): string {
  return `/runs/${encodeURIComponent(id)}`;
}

function workspaceRunsPath(workspaceId: string): string {
  return `/workspaces/${encodeURIComponent(workspaceId)}/runs`;
}

/**
 * The run lists' ration (HttpRequest.rateScope): HCP Terraform allows 30 run lists a minute, where most endpoints
 * allow 30 a second (docs/reference/hcp-terraform-runs.md). Its 429s pause only the run lists.
 */
export const RUN_LIST_SCOPE = 'tfe-run-lists';

function upgradePath(moduleId: string, workspaceId: string): string {
  return `/no-code-modules/${encodeURIComponent(moduleId)}/workspaces/${encodeURIComponent(workspaceId)}/upgrade`;
}

/** Runs (RUN) and the no-code workspace upgrade, whose id is a run id (docs/reference/hcp-terraform-api.md §3). */
export class RunsClient {
  constructor(private readonly api: JsonApiTransport) {}

  async readRun(id: string, ctx: CallContext): Promise<RunWire> {
    const { data } = await this.api.one({ method: 'GET', path: runPath(id) }, ctx);
    return parseRun(data, ctx.what);
  }

  /**
   * The newest `size` runs of a workspace (newest first per RUN). Rationed at 30 a minute: never on a path whose
   * requests grow with the fleet; run state comes from the workspace (`current-run`, `latest-run`) and
   * `GET /runs/:id` (run-state.ts).
   */
  async listRuns(workspaceId: string, ctx: CallContext, size = 20): Promise<RunWire[]> {
    const doc = parseListDocument(
      await this.api.json({ method: 'GET', path: workspaceRunsPath(workspaceId), query: { 'page[size]': size }, rateScope: RUN_LIST_SCOPE }, ctx),
      ctx.what,
    );
    return doc.data.map((r) => parseRun(r, ctx.what));
  }

  /** `POST /runs` with `is-destroy: true` (201, RUN). */
  async createDestroyRun(workspaceId: string, message: string, ctx: CallContext): Promise<RunWire> {
    const before = await this.newestRunId(workspaceId);
    const { data } = await this.api.one(
      {
        method: 'POST',
        path: '/runs',
        body: {
          data: {
            type: 'runs',
            attributes: { 'is-destroy': true, message },
            relationships: { workspace: { data: { type: 'workspaces', id: workspaceId } } },
          },
        },
        // Not idempotent (each call queues a run): after a lost reply, a run newer than the newest one
        // before the request is the one it queued (docs/architecture.md "Rules the code keeps").
        readBack: () => this.readBackNewRun(workspaceId, before),
      },
      ctx,
    );
    return parseRun(data, ctx.what);
  }

  /** `POST /runs/:id/actions/apply` (202, no body). */
  async applyRun(id: string, comment: string, ctx: CallContext): Promise<void> {
    await this.api.send(
      {
        method: 'POST',
        path: `${runPath(id)}/actions/apply`,
        body: { comment },
        // Not idempotent: after a lost reply, only a run that shows the confirmation was confirmed (docs/architecture.md "Rules the code keeps").
        readBack: () => this.readBackConfirmed(id),
      },
      ctx,
    );
  }

  async discardRun(id: string, comment: string, ctx: CallContext): Promise<void> {
    await this.api.send({ method: 'POST', path: `${runPath(id)}/actions/discard`, body: { comment } }, ctx);
  }

  // --- no-code workspace upgrade (docs/reference/hcp-terraform-api.md §3) ------------------------------------------------

  /** `newestRun`: the workspace's newest run id when the caller already knows it (a run sweep saw it). */
  async initiateUpgrade(moduleId: string, workspaceId: string, message: string, ctx: CallContext, newestRun?: string | null): Promise<WorkspaceUpgradeWire> {
    const body = { data: { type: 'workspaces', attributes: { message } } };
    // Not idempotent (each call queues a run): after a lost reply, a run newer than the newest one
    // before the request is the one it queued (docs/architecture.md "Rules the code keeps").
    const before = newestRun !== undefined ? newestRun : await this.newestRunId(workspaceId);
    const res = await this.api.send(
      { method: 'POST', path: upgradePath(moduleId, workspaceId), body, readBack: () => this.readBackNewRun(workspaceId, before) },
      ctx,
    );
    // The initiate answer is "not shown" in the spec (§4 rule 4); an empty or non-JSON 2xx still
    // means the service took it: the caller then finds the run among the workspace's runs.
    let doc: unknown;
    try {
      doc = JSON.parse(res.text) as unknown;
    } catch {
      return { runId: null, status: 'unknown', message: null };
    }
    return parseWorkspaceUpgrade(doc, ctx.what);
  }

  async upgradeStatus(moduleId: string, workspaceId: string, runId: string, ctx: CallContext): Promise<WorkspaceUpgradeWire> {
    const path = `${upgradePath(moduleId, workspaceId)}/${encodeURIComponent(runId)}`;
    return parseWorkspaceUpgrade(await this.api.json({ method: 'GET', path }, ctx), ctx.what);
  }

  /** Confirm: the documented body is `{ "Workspace update completed" }`, not JSON; any 2xx is success and the body is ignored. */
  async confirmUpgrade(moduleId: string, workspaceId: string, runId: string, message: string, ctx: CallContext): Promise<void> {
    const path = `${upgradePath(moduleId, workspaceId)}/${encodeURIComponent(runId)}`;
    // Not idempotent: after a lost reply, only a run that shows the confirmation was confirmed (docs/architecture.md "Rules the code keeps").
    await this.api.send({ method: 'POST', path, body: { data: { attributes: { message } } }, readBack: () => this.readBackConfirmed(runId, path) }, ctx);
  }

  // --- read-backs ------------------------------------------------------------------------------

  /**
   * The id of the workspace's newest run, null when it has none: its `latest-run` relationship (one `GET
   * /workspaces/:id`, at the host's 30 a second). Only a service that does not send `latest-run` is asked for its
   * runs list (rationed), and its `current-run` when it has no runs list either.
   */
  private async newestRunId(workspaceId: string): Promise<string | null> {
    const res = await this.api.readBackGet(`/workspaces/${encodeURIComponent(workspaceId)}`);
    const rel = res ? (JSON.parse(res.text) as { data?: { relationships?: Record<string, { data?: { id?: unknown } | null } | undefined> } }).data?.relationships : undefined;
    const latest = rel?.['latest-run'];
    if (latest !== undefined && 'data' in latest) return typeof latest.data?.id === 'string' ? latest.data.id : null;
    const listed = await this.api.readBackGet(workspaceRunsPath(workspaceId), { 'page[size]': 1 }, RUN_LIST_SCOPE);
    const first = listed ? (JSON.parse(listed.text) as { data?: { id?: unknown }[] }).data?.[0]?.id : undefined;
    if (typeof first === 'string') return first;
    const current = rel?.['current-run']?.data?.id;
    return typeof current === 'string' ? current : null;
  }

  /** The workspace's newest run as a one-run document (the shape a run-creating POST answers), when newer than `before`. */
  private async readBackNewRun(workspaceId: string, before: string | null): Promise<HttpResponse | undefined> {
    const newest = await this.newestRunId(workspaceId);
    if (newest === null || newest === before) return undefined;
    return this.api.readBackGet(runPath(newest));
  }

  /**
   * After a confirm (run apply or upgrade confirm) failed or lost its reply: the run's raw answer when it shows
   * the confirmation (an apply phase or `confirmed-at`, read-back.ts), else undefined and the confirm is sent
   * again (a run that cannot be confirmed then answers 409, which the caller reads as "not now"). A run that
   * merely left the plan phase it was in (e.g. `planned` → `cost_estimating`) was NOT confirmed.
   * Read through the runs API, which has the timestamps (the upgrade id is a run id, docs/reference/hcp-terraform-api.md §3); the upgrade
   * status document (`fallback`) only when the runs API does not know the run.
   */
  private async readBackConfirmed(runId: string, fallback?: string): Promise<HttpResponse | undefined> {
    let path = runPath(runId);
    let res = await this.api.readBackGet(path);
    if (res === undefined && fallback !== undefined) res = await this.api.readBackGet((path = fallback));
    if (res === undefined) return undefined;
    const attributes = (JSON.parse(res.text) as { data?: { attributes?: { status?: unknown; 'status-timestamps'?: unknown } } }).data?.attributes;
    const status = attributes?.status;
    if (typeof status !== 'string') throw new Error(`read-back of ${path}: no status`);
    const stamps = attributes?.['status-timestamps'];
    return showsConfirmed(status, typeof stamps === 'object' && stamps !== null ? (stamps as Record<string, unknown>) : undefined) ? res : undefined;
  }
}
