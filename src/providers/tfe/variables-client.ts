import type { JsonValue } from '../../model/json.js';
import type { CallContext, JsonApiTransport } from './jsonapi-transport.js';
import { parseListDocument, parseVar, type VarWire } from './wire.js';

/** A workspace variable as sent: omitted attributes keep their value on update (docs/reference/hcp-terraform-api.md §6). */
export interface VarBody {
  key: string;
  value?: string;
  description?: string;
  category?: string;
  hcl?: boolean;
  sensitive?: boolean;
}

/** The JSON:API attributes of a variable (also sent inside a workspace create). */
export function varAttributes(v: VarBody): Record<string, JsonValue> {
  const a: Record<string, JsonValue> = { key: v.key };
  if (v.value !== undefined) a.value = v.value;
  if (v.description !== undefined) a.description = v.description;
  if (v.category !== undefined) a.category = v.category;
  if (v.hcl !== undefined) a.hcl = v.hcl;
  if (v.sensitive !== undefined) a.sensitive = v.sensitive;
  return a;
}

function varsPath(workspaceId: string, varId?: string): string {
  return `/workspaces/${encodeURIComponent(workspaceId)}/vars${varId === undefined ? '' : `/${encodeURIComponent(varId)}`}`;
}

/** Workspace variables (docs/reference/hcp-terraform-api.md §6). */
export class VariablesClient {
  constructor(private readonly api: JsonApiTransport) {}

  async listVars(workspaceId: string, ctx: CallContext): Promise<VarWire[]> {
    // Not paginated (VARS); parse as a list document anyway.
    const doc = parseListDocument(await this.api.json({ method: 'GET', path: varsPath(workspaceId) }, ctx), ctx.what);
    return doc.data.map((r) => parseVar(r, ctx.what));
  }

  /** 201 (docs/reference/hcp-terraform-api.md §6); the answer is not used: any 2xx is success. */
  async createVar(workspaceId: string, v: VarBody, ctx: CallContext): Promise<void> {
    await this.api.send({ method: 'POST', path: varsPath(workspaceId), body: { data: { type: 'vars', attributes: varAttributes(v) } } }, ctx);
  }

  /** PATCH needs `data.id` in the body (docs/reference/hcp-terraform-api.md §6); the answer is not used. */
  async updateVar(workspaceId: string, varId: string, v: VarBody, ctx: CallContext): Promise<void> {
    await this.api.send({ method: 'PATCH', path: varsPath(workspaceId, varId), body: { data: { id: varId, type: 'vars', attributes: varAttributes(v) } } }, ctx);
  }

  /** 404 means already gone. */
  async deleteVar(workspaceId: string, varId: string, ctx: CallContext): Promise<void> {
    await this.api.sendOrGone({ method: 'DELETE', path: varsPath(workspaceId, varId) }, ctx);
  }
}
