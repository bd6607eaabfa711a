import type { HttpClient, HttpRequest, HttpResponse } from '../../http/types.js';
import type { JsonValue } from '../../model/json.js';
import { tfeError, type ErrorContext } from './errors.js';
import { moduleHolds, showsConfirmed } from './read-back.js';
import {
  decodeJson,
  parseAccount,
  parseDocument,
  parseListDocument,
  parseNamed,
  parseNoCodeModule,
  parseRegistryModule,
  parseRun,
  parseVar,
  parseVariableOption,
  parseWorkspace,
  parseWorkspaceUpgrade,
  relOne,
  WireError,
  type AccountWire,
  type JsonApiResource,
  type NamedWire,
  type NoCodeModuleWire,
  type RegistryModuleWire,
  type RunWire,
  type VarWire,
  type VariableOptionWire,
  type WorkspaceUpgradeWire,
  type WorkspaceWire,
} from './wire.js';

/*
 * Typed HCP Terraform endpoints over the one HTTP layer. Paths are relative to `<address>/api/v2`.
 * Every response is validated in wire.ts; every non-2xx becomes a coded error in errors.ts.
 * Reference tfc-api.md §8: `Content-Type: application/vnd.api+json` on every POST/PATCH/DELETE,
 * even body-less ones (else 415); statuses vary between siblings (200/201/202/204), so any 2xx is
 * success (reference "Surprises" 1).
 */

export const MEDIA_TYPE = 'application/vnd.api+json';
/** Maximum page size (reference §8 Pagination). */
export const PAGE_SIZE = 100;

/** One page of a JSON:API list; `hasNext` when the list goes on after it. */
export interface ListPage {
  data: JsonApiResource[];
  included: JsonApiResource[];
  pageNumber: number;
  totalPages: number | null;
  hasNext: boolean;
}

/** What a call is about, for errors (and the manifest object, so a 422 finds its file:line). */
export type CallContext = Omit<ErrorContext, 'organization'>;

export interface NoCodeModuleBody {
  registryModuleId: string;
  versionPin: string;
  enabled: boolean;
  variableOptions: { variableName: string; variableType: string; options: JsonValue[] }[];
}

export interface NoCodeModuleRead {
  module: NoCodeModuleWire;
  options: VariableOptionWire[];
}

export interface VarBody {
  key: string;
  value?: string;
  description?: string;
  category?: string;
  hcl?: boolean;
  sensitive?: boolean;
}

export interface WorkspaceCreateBody {
  name: string;
  description: string;
  executionMode: string;
  agentPoolId: string | null;
  autoApply: boolean;
  sourceName: string | null;
  sourceUrl: string | null;
  projectId: string | null;
  vars: VarBody[];
}

/** Attributes of `PATCH /workspaces/:id`; omitted ones keep their value (reference §5). */
export interface WorkspaceUpdateBody {
  description?: string;
  executionMode?: string;
  agentPoolId?: string | null;
  autoApply?: boolean;
  sourceName?: string | null;
  sourceUrl?: string | null;
  projectId?: string;
}

function isOk(status: number): boolean {
  return status >= 200 && status < 300;
}

function varAttributes(v: VarBody): Record<string, JsonValue> {
  const a: Record<string, JsonValue> = { key: v.key };
  if (v.value !== undefined) a.value = v.value;
  if (v.description !== undefined) a.description = v.description;
  if (v.category !== undefined) a.category = v.category;
  if (v.hcl !== undefined) a.hcl = v.hcl;
  if (v.sensitive !== undefined) a.sensitive = v.sensitive;
  return a;
}

export class TfeClient {
  constructor(
    readonly http: HttpClient,
    readonly organization: string,
  ) {}

  private get org(): string {
    return encodeURIComponent(this.organization);
  }

  /** Sends one request; non-2xx → coded error. */
  async send(req: HttpRequest, ctx: CallContext): Promise<HttpResponse> {
    const write = req.method !== 'GET';
    const headers: Record<string, string> = { Accept: MEDIA_TYPE, ...(write ? { 'Content-Type': MEDIA_TYPE } : {}), ...req.headers };
    const body = req.body === undefined ? undefined : typeof req.body === 'string' ? req.body : JSON.stringify(req.body);
    const res = await this.http.request({
      ...req,
      headers,
      ...(body !== undefined ? { body } : {}),
      subject: req.subject ?? ctx.what,
    });
    if (!isOk(res.status)) throw tfeError(res, { ...ctx, organization: this.organization });
    return res;
  }

  /** GET returning null on 404 (the reads that find out whether something exists). */
  private async getOrNull(path: string, query: HttpRequest['query'], ctx: CallContext): Promise<unknown> {
    const res = await this.http.request({ method: 'GET', path, headers: { Accept: MEDIA_TYPE }, subject: ctx.what, ...(query ? { query } : {}) });
    if (res.status === 404) return null;
    if (!isOk(res.status)) throw tfeError(res, { ...ctx, organization: this.organization });
    return decodeJson(res.text, ctx.what);
  }

  private async json(req: HttpRequest, ctx: CallContext): Promise<unknown> {
    const res = await this.send(req, ctx);
    return decodeJson(res.text, ctx.what);
  }

  private async one(req: HttpRequest, ctx: CallContext): Promise<{ data: JsonApiResource; included: JsonApiResource[] }> {
    const doc = parseDocument(await this.json(req, ctx), ctx.what);
    if (doc.data === null) throw new WireError(ctx.what, 'data is null');
    return { data: doc.data, included: doc.included };
  }

  /**
   * The pages of a list at page[size]=100, one at a time: a caller maps each page and lets it go, so a list of
   * 10 000 workspaces never holds more than one page of wire objects (issue 14.4). Breaking out stops paging.
   */
  async *pages(path: string, query: Record<string, string | number | boolean | undefined>, ctx: CallContext): AsyncGenerator<ListPage> {
    let page: number | null = 1;
    let size = PAGE_SIZE;
    while (page !== null) {
      const doc = parseListDocument(
        await this.json({ method: 'GET', path, query: { ...query, 'page[size]': size, 'page[number]': page } }, ctx),
        ctx.what,
      );
      // Page numbers count pages of the size the service used: a service that pages smaller than
      // asked is followed at its own size, so no item is skipped.
      if (doc.pageSize !== null && doc.pageSize > 0 && doc.pageSize < size) size = doc.pageSize;
      // An out-of-range page answers 200 with empty data (reference §4): stop there too.
      const next: number | null = doc.data.length === 0 || doc.nextPage === null || doc.nextPage <= page ? null : doc.nextPage;
      yield { data: doc.data, included: doc.included, pageNumber: page, totalPages: doc.totalPages, hasNext: next !== null };
      page = next;
    }
  }

  /**
   * Every page of a list, collected (for the short lists: registry modules, projects, agent pools). `keepGoing`
   * may stop early (after a page is added; asked only when another page follows).
   */
  async listAll(
    path: string,
    query: Record<string, string | number | boolean | undefined>,
    ctx: CallContext,
    keepGoing?: (page: { data: JsonApiResource[]; totalPages: number | null; pageNumber: number }) => boolean,
  ): Promise<{ data: JsonApiResource[]; included: JsonApiResource[] }> {
    const data: JsonApiResource[] = [];
    const included: JsonApiResource[] = [];
    for await (const page of this.pages(path, query, ctx)) {
      data.push(...page.data);
      included.push(...page.included);
      if (page.hasNext && keepGoing && !keepGoing(page)) break;
    }
    return { data, included };
  }

  // --- account and ping --------------------------------------------------------------------

  async ping(): Promise<void> {
    await this.send({ method: 'GET', path: '/ping' }, { what: 'ping' });
  }

  /** `GET /account/details`: for team/org tokens a service user whose `authenticated-resource` says which. */
  async accountDetails(): Promise<AccountWire> {
    const { data } = await this.one({ method: 'GET', path: '/account/details' }, { what: 'the token’s account' });
    return parseAccount(data);
  }

  // --- registry modules and no-code modules --------------------------------------------------

  /** All registry modules of the organization with their no-code module ids: one paginated list. */
  async listRegistryModules(): Promise<RegistryModuleWire[]> {
    const what = `registry modules of ${this.organization}`;
    const { data, included } = await this.listAll(`/organizations/${this.org}/registry-modules`, { include: 'no-code-modules' }, { what });
    // The relationship data names the no-code module (reference §1.5); should it be missing, the
    // included no-code modules point back through their `registry-module` relationship.
    const back = new Map<string, string>();
    for (const r of included) {
      const rm = relOne(r, 'registry-module');
      if (rm && (r.id.startsWith('nocode-') || /^no-code-(allowed-)?modules?$/.test(r.type)) && !back.has(rm.id)) back.set(rm.id, r.id);
    }
    return data.map((r) => {
      const m = parseRegistryModule(r, what);
      const fromIncluded = back.get(m.id);
      return m.noCodeModuleIds.length === 0 && fromIncluded !== undefined ? { ...m, noCodeModuleIds: [fromIncluded] } : m;
    });
  }

  async showRegistryModule(namespace: string, name: string, provider: string): Promise<RegistryModuleWire | null> {
    const what = `registry module ${namespace}/${name}/${provider}`;
    const path = `/organizations/${this.org}/registry-modules/private/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}/${encodeURIComponent(provider)}`;
    const body = await this.getOrNull(path, undefined, { what });
    if (body === null) return null;
    const doc = parseDocument(body, what);
    return doc.data ? parseRegistryModule(doc.data, what) : null;
  }

  /** Usable versions of a registry module (`version-statuses` with status ok), as listed. */
  async registryModuleVersions(namespace: string, name: string, provider: string): Promise<string[]> {
    const m = await this.showRegistryModule(namespace, name, provider);
    return (m?.versions ?? []).filter((v) => v.status === 'ok').map((v) => v.version);
  }

  private noCodeModuleDocument(body: NoCodeModuleBody): unknown {
    return {
      data: {
        type: 'no-code-modules',
        // `enabled` is always sent: the spec says it defaults to false, the real service to true
        // (reference "Spec versus real service").
        attributes: { 'version-pin': body.versionPin, enabled: body.enabled },
        relationships: {
          // go-tfe requires the registry module on update too (reference §1.2).
          'registry-module': { data: { id: body.registryModuleId, type: 'registry-module' } },
          // The whole set without ids: replace, never duplicate (reference §1.2, PV test).
          'variable-options': {
            data: body.variableOptions.map((o) => ({
              type: 'variable-options',
              attributes: { 'variable-name': o.variableName, 'variable-type': o.variableType, options: o.options },
            })),
          },
        },
      },
    };
  }

  private readNoCodeDoc(data: JsonApiResource, included: JsonApiResource[], what: string): NoCodeModuleRead {
    const module = parseNoCodeModule(data, what);
    // Included variable options, whatever the type string's spelling (reference "Surprises" 3).
    const options = included
      .filter((r) => /^variable[-_]options?$/.test(r.type) || r.id.startsWith('ncvaropt-') || typeof r.attributes['variable-name'] === 'string')
      .map((r) => parseVariableOption(r, what));
    return { module, options };
  }

  async enableNoCodeModule(body: NoCodeModuleBody, ctx: CallContext): Promise<NoCodeModuleRead> {
    const { data, included } = await this.one(
      {
        method: 'POST',
        path: `/organizations/${this.org}/no-code-modules`,
        body: this.noCodeModuleDocument(body),
        // Not idempotent: after a lost reply, the registry module names the no-code module the attempt made (STYLE.md §5).
        readBack: () => this.readBackNoCodeModule(body.registryModuleId),
      },
      { ...ctx, refusesOrganizationTokens: true },
    );
    return this.readNoCodeDoc(data, included, ctx.what);
  }

  /** The no-code module of a registry module, as the raw answer of its read (the enable answer's shape); undefined when none. */
  private async readBackNoCodeModule(registryModuleId: string): Promise<HttpResponse | undefined> {
    const rm = (await this.listRegistryModules()).find((m) => m.id === registryModuleId);
    const id = rm?.noCodeModuleIds[0];
    if (id === undefined) return undefined;
    return this.readBackGet(`/no-code-modules/${encodeURIComponent(id)}`, { include: 'variable_options' });
  }

  /** The module's read when it holds what the PATCH sent (read-back.ts), else undefined: send it again. */
  private async readBackModuleUpdate(id: string, body: NoCodeModuleBody, what: string): Promise<HttpResponse | undefined> {
    const res = await this.readBackGet(`/no-code-modules/${encodeURIComponent(id)}`, { include: 'variable_options' });
    if (res === undefined) return undefined;
    const doc = parseDocument(JSON.parse(res.text) as unknown, what);
    if (doc.data === null) return undefined;
    const read = this.readNoCodeDoc(doc.data, doc.included, what);
    return moduleHolds(read.module, read.options, body) ? res : undefined;
  }

  /** A GET for a read-back: the raw 2xx answer, undefined on 404, a throw otherwise ("cannot tell"). */
  private async readBackGet(path: string, query?: HttpRequest['query']): Promise<HttpResponse | undefined> {
    const res = await this.http.request({ method: 'GET', path, headers: { Accept: MEDIA_TYPE }, ...(query ? { query } : {}) });
    if (res.status === 404) return undefined;
    if (!isOk(res.status)) throw new Error(`read-back of ${path} answered ${res.status}`);
    return res;
  }

  /** `GET /no-code-modules/:id?include=variable_options` (the documented spelling, reference §1.3); 404 → null. */
  async readNoCodeModule(id: string, ctx: CallContext): Promise<NoCodeModuleRead | null> {
    const body = await this.getOrNull(`/no-code-modules/${encodeURIComponent(id)}`, { include: 'variable_options' }, ctx);
    if (body === null) return null;
    const doc = parseDocument(body, ctx.what);
    if (doc.data === null) return null;
    return this.readNoCodeDoc(doc.data, doc.included, ctx.what);
  }

  /** The answer is not used: any 2xx is success, whatever its body (reference "Surprises" 1). */
  async updateNoCodeModule(id: string, body: NoCodeModuleBody, ctx: CallContext): Promise<void> {
    await this.send(
      {
        method: 'PATCH',
        path: `/no-code-modules/${encodeURIComponent(id)}`,
        body: this.noCodeModuleDocument(body),
        // After a 5xx or a lost reply, a module that already holds what was sent needs nothing more;
        // otherwise the PATCH is sent again (it replaces the whole set, so a second one changes nothing more).
        readBack: () => this.readBackModuleUpdate(id, body, ctx.what),
      },
      { ...ctx, refusesOrganizationTokens: true },
    );
  }

  /** `DELETE /no-code-modules/:id` (undocumented in NC, used by go-tfe and the provider). 404 → false (already gone). */
  async deleteNoCodeModule(id: string, ctx: CallContext): Promise<boolean> {
    const res = await this.http.request({
      method: 'DELETE',
      path: `/no-code-modules/${encodeURIComponent(id)}`,
      headers: { Accept: MEDIA_TYPE, 'Content-Type': MEDIA_TYPE },
      subject: ctx.what,
    });
    if (res.status === 404) return false;
    if (!isOk(res.status)) throw tfeError(res, { ...ctx, organization: this.organization });
    return true;
  }

  // --- projects and agent pools --------------------------------------------------------------

  /** Projects of the organization; `names` filters exactly (case-insensitive, reference §7). */
  async listProjects(names?: readonly string[]): Promise<NamedWire[]> {
    const what = `projects of ${this.organization}`;
    const query = names && names.length > 0 ? { 'filter[names]': names.join(',') } : {};
    const { data } = await this.listAll(`/organizations/${this.org}/projects`, query, { what });
    return data.map((r) => parseNamed(r, what));
  }

  async listAgentPools(): Promise<NamedWire[]> {
    const what = `agent pools of ${this.organization}`;
    const { data } = await this.listAll(`/organizations/${this.org}/agent-pools`, {}, { what });
    return data.map((r) => parseNamed(r, what));
  }

  // --- workspaces ----------------------------------------------------------------------------

  /** Show by exact name (the list's `search[name]` is fuzzy, reference §5); 404 → null. */
  async showWorkspace(name: string, ctx?: CallContext): Promise<WorkspaceWire | null> {
    const c = ctx ?? { what: `workspace ${name}` };
    const body = await this.getOrNull(`/organizations/${this.org}/workspaces/${encodeURIComponent(name)}`, undefined, c);
    if (body === null) return null;
    const doc = parseDocument(body, c.what);
    return doc.data ? parseWorkspace(doc.data, c.what) : null;
  }

  async readWorkspace(id: string, ctx: CallContext): Promise<WorkspaceWire> {
    const { data } = await this.one({ method: 'GET', path: `/workspaces/${encodeURIComponent(id)}` }, ctx);
    return parseWorkspace(data, ctx.what);
  }

  /** The organization's workspaces, one page (at 100) at a time, mapped; breaking out stops paging. */
  async *workspacePages(): AsyncGenerator<{ workspaces: WorkspaceWire[]; pageNumber: number; totalPages: number | null }> {
    const what = `workspaces of ${this.organization}`;
    for await (const page of this.pages(`/organizations/${this.org}/workspaces`, {}, { what })) {
      yield { workspaces: page.data.map((r) => parseWorkspace(r, what)), pageNumber: page.pageNumber, totalPages: page.totalPages };
    }
  }

  /** All the organization's workspaces. */
  async listWorkspaces(): Promise<WorkspaceWire[]> {
    const all: WorkspaceWire[] = [];
    for await (const page of this.workspacePages()) all.push(...page.workspaces);
    return all;
  }

  /** `POST /no-code-modules/:id/workspaces` (200, reference §2). Vars are sent in manifest order. */
  async createNoCodeWorkspace(moduleId: string, body: WorkspaceCreateBody, ctx: CallContext): Promise<WorkspaceWire> {
    const attributes: Record<string, JsonValue> = {
      name: body.name,
      description: body.description,
      'execution-mode': body.executionMode,
      // NC documents `auto_apply` for this endpoint; go-tfe and every response use `auto-apply`
      // (reference §2). Both are sent so either reading takes it.
      'auto-apply': body.autoApply,
      auto_apply: body.autoApply,
    };
    // `agent-pool-id` only with agent mode: forbidden for remote (reference §5, spec §2).
    if (body.agentPoolId !== null) attributes['agent-pool-id'] = body.agentPoolId;
    if (body.sourceName !== null) attributes['source-name'] = body.sourceName;
    if (body.sourceUrl !== null) attributes['source-url'] = body.sourceUrl;
    const relationships: Record<string, JsonValue> = {
      vars: { data: body.vars.map((v) => ({ type: 'vars', attributes: varAttributes(v) })) },
    };
    if (body.projectId !== null) relationships.project = { data: { id: body.projectId, type: 'project' } };
    const { data } = await this.one(
      {
        method: 'POST',
        path: `/no-code-modules/${encodeURIComponent(moduleId)}/workspaces`,
        body: { data: { type: 'workspaces', attributes, relationships } },
        // Not idempotent: after a lost reply, a workspace of that name is the one the attempt made (STYLE.md §5).
        readBack: () => this.readBackGet(`/organizations/${this.org}/workspaces/${encodeURIComponent(body.name)}`),
      },
      { ...ctx, refusesOrganizationTokens: true },
    );
    return parseWorkspace(data, ctx.what);
  }

  /** `PATCH /workspaces/:id`; omitted attributes keep their value. The answer is not used: any 2xx is success. */
  async updateWorkspace(id: string, body: WorkspaceUpdateBody, ctx: CallContext): Promise<void> {
    const attributes: Record<string, JsonValue> = {};
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
    await this.send({ method: 'PATCH', path: `/workspaces/${encodeURIComponent(id)}`, body: { data } }, ctx);
  }

  /** `POST /workspaces/:id/actions/safe-delete` (204; 409 while it manages resources). 404 → false (already gone). */
  async safeDeleteWorkspace(id: string, ctx: CallContext): Promise<boolean> {
    const res = await this.http.request({
      method: 'POST',
      path: `/workspaces/${encodeURIComponent(id)}/actions/safe-delete`,
      headers: { Accept: MEDIA_TYPE, 'Content-Type': MEDIA_TYPE },
      subject: ctx.what,
      // Deleting twice is harmless: the second answers 404, which means done.
      idempotent: true,
    });
    if (res.status === 404) return false;
    if (!isOk(res.status)) throw tfeError(res, { ...ctx, organization: this.organization });
    return true;
  }

  /** `DELETE /workspaces/:id` (force; 403 unless allowed). 404 → false. */
  async forceDeleteWorkspace(id: string, ctx: CallContext): Promise<boolean> {
    const res = await this.http.request({
      method: 'DELETE',
      path: `/workspaces/${encodeURIComponent(id)}`,
      headers: { Accept: MEDIA_TYPE, 'Content-Type': MEDIA_TYPE },
      subject: ctx.what,
    });
    if (res.status === 404) return false;
    if (!isOk(res.status)) throw tfeError(res, { ...ctx, organization: this.organization });
    return true;
  }

  // --- workspace variables -------------------------------------------------------------------

  async listVars(workspaceId: string, ctx: CallContext): Promise<VarWire[]> {
    // Not paginated (VARS); parse as a list document anyway.
    const doc = parseListDocument(await this.json({ method: 'GET', path: `/workspaces/${encodeURIComponent(workspaceId)}/vars` }, ctx), ctx.what);
    return doc.data.map((r) => parseVar(r, ctx.what));
  }

  /** 201 (reference §6); the answer is not used: any 2xx is success. */
  async createVar(workspaceId: string, v: VarBody, ctx: CallContext): Promise<void> {
    await this.send(
      { method: 'POST', path: `/workspaces/${encodeURIComponent(workspaceId)}/vars`, body: { data: { type: 'vars', attributes: varAttributes(v) } } },
      ctx,
    );
  }

  /** PATCH needs `data.id` in the body (reference §6); the answer is not used. */
  async updateVar(workspaceId: string, varId: string, v: VarBody, ctx: CallContext): Promise<void> {
    await this.send(
      {
        method: 'PATCH',
        path: `/workspaces/${encodeURIComponent(workspaceId)}/vars/${encodeURIComponent(varId)}`,
        body: { data: { id: varId, type: 'vars', attributes: varAttributes(v) } },
      },
      ctx,
    );
  }

  async deleteVar(workspaceId: string, varId: string, ctx: CallContext): Promise<void> {
    const res = await this.http.request({
      method: 'DELETE',
      path: `/workspaces/${encodeURIComponent(workspaceId)}/vars/${encodeURIComponent(varId)}`,
      headers: { Accept: MEDIA_TYPE, 'Content-Type': MEDIA_TYPE },
      subject: ctx.what,
    });
    if (res.status === 404) return;
    if (!isOk(res.status)) throw tfeError(res, { ...ctx, organization: this.organization });
  }

  // --- runs ----------------------------------------------------------------------------------

  async readRun(id: string, ctx: CallContext): Promise<RunWire> {
    const { data } = await this.one({ method: 'GET', path: `/runs/${encodeURIComponent(id)}` }, ctx);
    return parseRun(data, ctx.what);
  }

  /** The newest runs of a workspace (first page, newest first per RUN). */
  async listRuns(workspaceId: string, ctx: CallContext): Promise<RunWire[]> {
    const doc = parseListDocument(
      await this.json({ method: 'GET', path: `/workspaces/${encodeURIComponent(workspaceId)}/runs`, query: { 'page[size]': 20 } }, ctx),
      ctx.what,
    );
    return doc.data.map((r) => parseRun(r, ctx.what));
  }

  /** `POST /runs` with `is-destroy: true` (201, RUN). */
  async createDestroyRun(workspaceId: string, message: string, ctx: CallContext): Promise<RunWire> {
    const before = await this.newestRunId(workspaceId);
    const { data } = await this.one(
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
        // before the request is the one it queued (STYLE.md §5).
        readBack: () => this.readBackNewRun(workspaceId, before),
      },
      ctx,
    );
    return parseRun(data, ctx.what);
  }

  /** `POST /runs/:id/actions/apply` (202, no body). */
  async applyRun(id: string, comment: string, ctx: CallContext): Promise<void> {
    await this.send(
      {
        method: 'POST',
        path: `/runs/${encodeURIComponent(id)}/actions/apply`,
        body: { comment },
        // Not idempotent: after a lost reply, only a run that shows the confirmation was confirmed (STYLE.md §5).
        readBack: () => this.readBackConfirmed(id),
      },
      ctx,
    );
  }

  /** The id of the workspace's newest run (runs list newest first, RUN), null when it has none. */
  private async newestRunId(workspaceId: string): Promise<string | null> {
    const res = await this.readBackGet(`/workspaces/${encodeURIComponent(workspaceId)}/runs`, { 'page[size]': 1 });
    const first = (res ? (JSON.parse(res.text) as { data?: { id?: unknown }[] }).data?.[0]?.id : undefined) ?? null;
    return typeof first === 'string' ? first : null;
  }

  /** The workspace's newest run as a one-run document (the shape a run-creating POST answers), when newer than `before`. */
  private async readBackNewRun(workspaceId: string, before: string | null): Promise<HttpResponse | undefined> {
    const res = await this.readBackGet(`/workspaces/${encodeURIComponent(workspaceId)}/runs`, { 'page[size]': 1 });
    const run = res ? (JSON.parse(res.text) as { data?: { id?: unknown }[] }).data?.[0] : undefined;
    if (!res || run === undefined || typeof run.id !== 'string' || run.id === before) return undefined;
    return { status: 200, headers: res.headers, text: JSON.stringify({ data: run }) };
  }

  /**
   * After a confirm (run apply or upgrade confirm) failed or lost its reply: the run's raw answer when it shows
   * the confirmation (an apply phase or `confirmed-at`, read-back.ts), else undefined and the confirm is sent
   * again (a run that cannot be confirmed then answers 409, which the caller reads as "not now"). A run that
   * merely left the plan phase it was in (e.g. `planned` → `cost_estimating`) was NOT confirmed (issue 16.1).
   * Read through the runs API, which has the timestamps (the upgrade id is a run id, reference §3); the upgrade
   * status document (`fallback`) only when the runs API does not know the run.
   */
  private async readBackConfirmed(runId: string, fallback?: string): Promise<HttpResponse | undefined> {
    let path = `/runs/${encodeURIComponent(runId)}`;
    let res = await this.readBackGet(path);
    if (res === undefined && fallback !== undefined) res = await this.readBackGet((path = fallback));
    if (res === undefined) return undefined;
    const attributes = (JSON.parse(res.text) as { data?: { attributes?: { status?: unknown; 'status-timestamps'?: unknown } } }).data?.attributes;
    const status = attributes?.status;
    if (typeof status !== 'string') throw new Error(`read-back of ${path}: no status`);
    const stamps = attributes?.['status-timestamps'];
    return showsConfirmed(status, typeof stamps === 'object' && stamps !== null ? (stamps as Record<string, unknown>) : undefined) ? res : undefined;
  }

  async discardRun(id: string, comment: string, ctx: CallContext): Promise<void> {
    await this.send({ method: 'POST', path: `/runs/${encodeURIComponent(id)}/actions/discard`, body: { comment } }, ctx);
  }

  // --- no-code workspace upgrade (reference §3) ------------------------------------------------

  private upgradePath(moduleId: string, workspaceId: string): string {
    return `/no-code-modules/${encodeURIComponent(moduleId)}/workspaces/${encodeURIComponent(workspaceId)}/upgrade`;
  }

  async initiateUpgrade(moduleId: string, workspaceId: string, message: string, ctx: CallContext): Promise<WorkspaceUpgradeWire> {
    const body = { data: { type: 'workspaces', attributes: { message } } };
    // Not idempotent (each call queues a run): after a lost reply, a run newer than the newest one
    // before the request is the one it queued (STYLE.md §5).
    const before = await this.newestRunId(workspaceId);
    const res = await this.send(
      { method: 'POST', path: this.upgradePath(moduleId, workspaceId), body, readBack: () => this.readBackNewRun(workspaceId, before) },
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
    const path = `${this.upgradePath(moduleId, workspaceId)}/${encodeURIComponent(runId)}`;
    return parseWorkspaceUpgrade(await this.json({ method: 'GET', path }, ctx), ctx.what);
  }

  /** Confirm: the documented body is `{ "Workspace update completed" }`, not JSON; any 2xx is success and the body is ignored. */
  async confirmUpgrade(moduleId: string, workspaceId: string, runId: string, message: string, ctx: CallContext): Promise<void> {
    const path = `${this.upgradePath(moduleId, workspaceId)}/${encodeURIComponent(runId)}`;
    // Not idempotent: after a lost reply, only a run that shows the confirmation was confirmed (STYLE.md §5).
    await this.send({ method: 'POST', path, body: { data: { attributes: { message } } }, readBack: () => this.readBackConfirmed(runId, path) }, ctx);
  }
}
