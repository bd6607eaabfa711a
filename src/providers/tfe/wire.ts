import { ConvergeError } from '../../diagnostics/errors.js';

/*
 * JSON:API shapes of HCP Terraform, validated at the boundary. Each `parse…` takes the decoded
 * `data` object (or document) and returns a small typed record with only what converge uses; any
 * shape surprise is a `tfe.response.invalid` error (source remote) naming the endpoint, never a
 * silent `undefined` further down. Type strings are not checked: the service is inconsistent
 * about them (docs/reference/hcp-terraform-api.md "Surprises" 3).
 */

type Obj = Record<string, unknown>;

export class WireError extends ConvergeError {
  constructor(what: string, detail: string) {
    super('tfe.response.invalid', `unexpected response from HCP Terraform (${what}): ${detail}`, { source: 'remote' });
  }
}

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function obj(v: unknown, what: string, path: string): Obj {
  if (!isObj(v)) throw new WireError(what, `${path} is not an object`);
  return v;
}

export function optObj(v: unknown): Obj {
  return isObj(v) ? v : {};
}

export function str(o: Obj, key: string, what: string, path: string): string {
  const v = o[key];
  if (typeof v !== 'string') throw new WireError(what, `${path}.${key} is not a string`);
  return v;
}

export function optStr(o: Obj, key: string, what: string, path: string): string | null {
  const v = o[key];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') throw new WireError(what, `${path}.${key} is not a string`);
  return v;
}

export function optBool(o: Obj, key: string, what: string, path: string): boolean | null {
  const v = o[key];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'boolean') throw new WireError(what, `${path}.${key} is not a boolean`);
  return v;
}

/** Decodes a body as JSON; the error names the endpoint. */
export function decodeJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new WireError(what, 'the body is not JSON');
  }
}

export interface JsonApiResource {
  id: string;
  type: string;
  attributes: Obj;
  relationships: Obj;
}

export interface JsonApiDocument {
  data: JsonApiResource | null;
  included: JsonApiResource[];
}

export interface JsonApiListDocument {
  data: JsonApiResource[];
  included: JsonApiResource[];
  /** Next page number, or null on the last page. */
  nextPage: number | null;
  totalPages: number | null;
  /** The page size the service used (meta `page-size`, else `page[size]` of links.next), when it says. */
  pageSize: number | null;
}

function resource(v: unknown, what: string, path: string): JsonApiResource {
  const o = obj(v, what, path);
  return {
    id: str(o, 'id', what, path),
    type: typeof o.type === 'string' ? o.type : '',
    attributes: optObj(o.attributes),
    relationships: optObj(o.relationships),
  };
}

function included(doc: Obj, what: string): JsonApiResource[] {
  const inc = doc.included;
  if (inc === undefined || inc === null) return [];
  if (!Array.isArray(inc)) throw new WireError(what, 'included is not an array');
  return inc.map((r, i) => resource(r, what, `included[${i}]`));
}

export function parseDocument(body: unknown, what: string): JsonApiDocument {
  const doc = obj(body, what, 'document');
  return { data: doc.data === null ? null : resource(doc.data, what, 'data'), included: included(doc, what) };
}

/**
 * A list page. The next page comes from `meta.pagination.next-page`, else from `links.next`
 * (docs/reference/hcp-terraform-api.md §8 Pagination: both are documented; some lists carry their own meta).
 */
export function parseListDocument(body: unknown, what: string): JsonApiListDocument {
  const doc = obj(body, what, 'document');
  if (!Array.isArray(doc.data)) throw new WireError(what, 'data is not an array');
  const data = doc.data.map((r, i) => resource(r, what, `data[${i}]`));
  const pagination = optObj(optObj(doc.meta).pagination);
  let nextPage: number | null = null;
  let pageSize = num(pagination['page-size']) ?? null;
  const nextLink = optObj(doc.links).next;
  if (pageSize === null && typeof nextLink === 'string') {
    const m = /page(?:%5B|\[)size(?:%5D|\])=(\d+)/i.exec(nextLink);
    if (m?.[1] !== undefined) pageSize = Number(m[1]);
  }
  const np = num(pagination['next-page']);
  const tp = num(pagination['total-pages']);
  const cp = num(pagination['current-page']);
  if (np !== undefined) nextPage = np;
  else {
    // Either may be missing (some lists carry their own meta, docs/reference/hcp-terraform-api.md §8): links.next, else
    // current-page < total-pages.
    const next = optObj(doc.links).next;
    if (typeof next === 'string' && next !== '') {
      const m = /page(?:%5B|\[)number(?:%5D|\])=(\d+)/i.exec(next);
      if (m?.[1] !== undefined) nextPage = Number(m[1]);
    }
    if (nextPage === null && np === undefined && cp !== undefined && cp !== null && tp !== undefined && tp !== null && cp < tp) nextPage = cp + 1;
  }
  return { data, included: included(doc, what), nextPage, totalPages: tp ?? null, pageSize };
}

/** A page number as a number or numeric string; null when explicitly null; undefined when absent or junk. */
function num(v: unknown): number | null | undefined {
  if (v === null) return null;
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && /^\d+$/.test(v)) return Number(v);
  return undefined;
}

/** `relationships.<name>.data` as one `{id,type}`, or null. */
export function relOne(r: JsonApiResource, name: string): { id: string; type: string } | null {
  const d = optObj(r.relationships[name]).data;
  if (!isObj(d) || typeof d.id !== 'string') return null;
  return { id: d.id, type: typeof d.type === 'string' ? d.type : '' };
}

/** `relationships.<name>.data` as a list of ids ([] when absent). */
export function relMany(r: JsonApiResource, name: string): string[] {
  const d = optObj(r.relationships[name]).data;
  if (!Array.isArray(d)) return [];
  return d.filter(isObj).flatMap((x) => (typeof x.id === 'string' ? [x.id] : []));
}

// ---------------------------------------------------------------------------------------------

export interface WorkspaceWire {
  id: string;
  name: string;
  description: string | null;
  executionMode: string | null;
  autoApply: boolean | null;
  sourceName: string | null;
  sourceUrl: string | null;
  /** `private/<org>/<name>/<provider>/<version>`; present only on no-code workspaces (docs/reference/hcp-terraform-api.md §2, OAS). */
  sourceModuleId: string | null;
  noCodeUpgradeAvailable: boolean | null;
  projectId: string | null;
  /** Read as a relationship, written as attribute `agent-pool-id` (docs/reference/hcp-terraform-api.md §5). */
  agentPoolId: string | null;
  currentRunId: string | null;
  /**
   * The workspace's newest run, whatever its state (relationship `latest-run`, WS sample responses). A run queued
   * behind another stays pending and is not the current run until it starts (RUN), so a final current run does
   * not mean nothing is pending: compare the two. Undefined when the service sends no `latest-run`: not known.
   */
  latestRunId?: string | null | undefined;
  noCodeModuleVersionId: string | null;
  locked: boolean | null;
  /** When the workspace was created: its first run is queued with it (docs/reference/hcp-terraform-api.md §2). */
  createdAt?: string | null;
  updatedAt: string | null;
  /** Flat tag names (`tag-names`, go-tfe `Workspace.TagNames`); converge's owner tag is one (src/kinds/no-code-workspace/remote/owner-tag.ts). */
  tagNames?: string[];
  /**
   * Resources in the workspace's current state (`resource-count`, go-tfe `Workspace.ResourceCount`); a
   * safe-delete of a workspace with any is refused with 409. Null when the service does not send it.
   */
  resourceCount?: number | null;
}

export function parseWorkspace(r: JsonApiResource, what: string): WorkspaceWire {
  const a = r.attributes;
  const p = `workspace ${r.id}`;
  // NC documents `auto_apply` on create; responses use `auto-apply`. Accept either.
  const autoApply = optBool(a, 'auto-apply', what, p) ?? optBool(a, 'auto_apply', what, p);
  return {
    id: r.id,
    name: str(a, 'name', what, p),
    description: optStr(a, 'description', what, p),
    executionMode: optStr(a, 'execution-mode', what, p),
    autoApply,
    sourceName: optStr(a, 'source-name', what, p),
    sourceUrl: optStr(a, 'source-url', what, p),
    sourceModuleId: optStr(a, 'source-module-id', what, p),
    noCodeUpgradeAvailable: optBool(a, 'no-code-upgrade-available', what, p),
    projectId: relOne(r, 'project')?.id ?? null,
    agentPoolId: relOne(r, 'agent-pool')?.id ?? null,
    currentRunId: relOne(r, 'current-run')?.id ?? null,
    latestRunId: 'data' in optObj(r.relationships['latest-run']) ? (relOne(r, 'latest-run')?.id ?? null) : undefined,
    noCodeModuleVersionId: relOne(r, 'no-code-module-version')?.id ?? null,
    locked: optBool(a, 'locked', what, p),
    createdAt: optStr(a, 'created-at', what, p),
    updatedAt: optStr(a, 'updated-at', what, p),
    tagNames: Array.isArray(a['tag-names']) ? a['tag-names'].filter((t): t is string => typeof t === 'string') : [],
    resourceCount: typeof a['resource-count'] === 'number' ? a['resource-count'] : null,
  };
}

export interface VarWire {
  id: string;
  key: string;
  /** Null (or empty) for sensitive variables: written once, never returned (docs/reference/hcp-terraform-api.md §6). */
  value: string | null;
  category: string;
  hcl: boolean;
  sensitive: boolean;
  description: string | null;
  versionId: string | null;
}

export function parseVar(r: JsonApiResource, what: string): VarWire {
  const a = r.attributes;
  const p = `variable ${r.id}`;
  return {
    id: r.id,
    key: str(a, 'key', what, p),
    value: optStr(a, 'value', what, p),
    category: str(a, 'category', what, p),
    hcl: optBool(a, 'hcl', what, p) ?? false,
    sensitive: optBool(a, 'sensitive', what, p) ?? false,
    description: optStr(a, 'description', what, p),
    versionId: optStr(a, 'version-id', what, p),
  };
}

export interface NamedWire {
  id: string;
  name: string;
}

export function parseNamed(r: JsonApiResource, what: string): NamedWire {
  return { id: r.id, name: str(r.attributes, 'name', what, `${r.type || 'resource'} ${r.id}`) };
}

export interface RunWire {
  id: string;
  status: string;
  isDestroy: boolean;
  /** `actions.is-confirmable` when the service says it (RUN). */
  confirmable: boolean | null;
  createdAt: string | null;
}

export function parseRun(r: JsonApiResource, what: string): RunWire {
  const a = r.attributes;
  const p = `run ${r.id}`;
  const actions = optObj(a.actions);
  return {
    id: r.id,
    status: str(a, 'status', what, p),
    isDestroy: optBool(a, 'is-destroy', what, p) ?? false,
    confirmable: typeof actions['is-confirmable'] === 'boolean' ? actions['is-confirmable'] : null,
    createdAt: optStr(a, 'created-at', what, p),
  };
}

/**
 * `workspace-upgrade` (docs/reference/hcp-terraform-api.md §3): `id` is a run id; `status` a run state. When no upgrade is
 * pending the service answers with only `attributes.message` (go-tfe `WorkspaceUpgrade.Message`).
 */
export interface WorkspaceUpgradeWire {
  runId: string | null;
  status: string | null;
  message: string | null;
}

export function parseWorkspaceUpgrade(body: unknown, what: string): WorkspaceUpgradeWire {
  const doc = obj(body, what, 'document');
  const data = obj(doc.data, what, 'data');
  const a = optObj(data.attributes);
  const id = typeof data.id === 'string' && data.id !== '' ? data.id : null;
  return { runId: id, status: optStr(a, 'status', what, 'data.attributes'), message: optStr(a, 'message', what, 'data.attributes') };
}

export interface AccountWire {
  id: string;
  /** `relationships.authenticated-resource`: a team or an organization for service users (Account API). */
  authenticatedResource: { id: string; type: string } | null;
  username: string | null;
  /** `is-service-account`: true for the synthetic user of team and organization tokens. */
  serviceAccount: boolean | null;
}

export function parseAccount(r: JsonApiResource): AccountWire {
  const a = r.attributes;
  return {
    id: r.id,
    authenticatedResource: relOne(r, 'authenticated-resource'),
    username: typeof a.username === 'string' ? a.username : null,
    serviceAccount: typeof a['is-service-account'] === 'boolean' ? a['is-service-account'] : null,
  };
}

/** JSON:API error objects; `status` is a string except in the documented 429 body (docs/reference/hcp-terraform-api.md §8). */
export interface WireErrorObject {
  status: string | null;
  title: string | null;
  detail: string | null;
  pointer: string | null;
}

export function parseErrors(text: string): WireErrorObject[] {
  let body: unknown;
  try {
    body = JSON.parse(text) as unknown;
  } catch {
    return [];
  }
  if (!isObj(body) || !Array.isArray(body.errors)) return [];
  return body.errors.map((e): WireErrorObject => {
    // go-tfe also accepts `{"errors":["..."]}` (GT decodeErrorPayload).
    if (typeof e === 'string') return { status: null, title: null, detail: e, pointer: null };
    const o = optObj(e);
    const status = typeof o.status === 'number' ? String(o.status) : typeof o.status === 'string' ? o.status : null;
    const pointer = optObj(o.source).pointer;
    return {
      status,
      title: typeof o.title === 'string' ? o.title : null,
      detail: typeof o.detail === 'string' ? o.detail : null,
      pointer: typeof pointer === 'string' ? pointer : null,
    };
  });
}
