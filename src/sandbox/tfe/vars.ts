import { dataOf, Fields, requireType } from './body.js';
import { noContent, ok, type Ctx, type Route } from './context.js';
import { invalid, notFound } from './errors.js';
import type { VarCategory, Workspace, WorkspaceVar } from './model.js';
import { varResource } from './var-wire.js';
import { findWorkspace } from './workspace-lookup.js';

/** Workspace variables (docs/reference/hcp-terraform-api.md §6) and the vars sent with no-code create and upgrade (docs/reference/hcp-terraform-api.md §2, §3). */

export interface VarInput {
  key?: string;
  value?: string;
  description?: string | null;
  category?: VarCategory;
  hcl?: boolean;
  sensitive?: boolean;
  /** Pointer of the `attributes` object, for errors. */
  pointer: string;
}

const CATEGORIES = ['terraform', 'env'];

/** One var's attributes. `full`: key and category are required (create). */
export function readVarAttributes(attrs: Fields, full: boolean): VarInput {
  const key = attrs.string('key', { required: full }) ?? undefined;
  if (key !== undefined && key === '') throw invalid(attrs.at('key'), "Key can't be blank");
  const category = attrs.string('category', { required: full }) ?? undefined;
  if (category !== undefined && !CATEGORIES.includes(category)) throw invalid(attrs.at('category'), 'Category must be terraform or env');
  // A number or boolean value is accepted and stored as text, as the real API coerces scalars (inferred).
  const raw = attrs.value.value;
  let value: string | undefined;
  if (raw === undefined) value = undefined;
  else if (raw === null) value = '';
  else if (typeof raw === 'string' || typeof raw === 'number' || typeof raw === 'boolean') value = String(raw);
  else throw invalid(attrs.at('value'), 'value must be a string');
  const description = attrs.string('description', { nullable: true });
  return {
    pointer: attrs.pointer,
    ...(key !== undefined ? { key } : {}),
    ...(value !== undefined ? { value } : {}),
    ...(description !== undefined ? { description } : {}),
    ...(category !== undefined ? { category: category as VarCategory } : {}),
    ...(attrs.bool('hcl') !== undefined ? { hcl: attrs.bool('hcl') as boolean } : {}),
    ...(attrs.bool('sensitive') !== undefined ? { sensitive: attrs.bool('sensitive') as boolean } : {}),
  };
}

/** `relationships.vars.data[]` of a no-code create or upgrade: each `{type:'vars', attributes:{…}}` (docs/reference/hcp-terraform-api.md §2). */
export function readVarsRelationship(data: Fields): VarInput[] | undefined {
  const items = data.object('relationships')?.object('vars')?.objects('data');
  if (!items) return undefined;
  return items.map((item) => {
    if (item.value.type !== undefined) requireType(item, ['vars']);
    return readVarAttributes(item.object('attributes', { required: true }) as Fields, true);
  });
}

const taken = (input: VarInput): never => {
  throw invalid(`${input.pointer}/key`, 'Key has already been taken');
};

export function newVar(ctx: Ctx, input: VarInput): WorkspaceVar {
  return {
    id: ctx.store.ids.next('var'),
    key: input.key ?? '',
    value: input.value ?? '',
    description: input.description ?? null,
    category: input.category ?? 'terraform',
    hcl: input.hcl ?? false,
    sensitive: input.sensitive ?? false,
    versionId: ctx.store.ids.hex(),
  };
}

/** Keys are unique per category in a workspace (docs/reference/hcp-terraform-api.md §8: `Key has already been taken`). */
export function checkNewVars(existing: WorkspaceVar[], inputs: VarInput[]): void {
  const seen = new Set(existing.map((v) => `${v.category}\u0000${v.key}`));
  for (const input of inputs) {
    const k = `${input.category ?? 'terraform'}\u0000${input.key ?? ''}`;
    if (seen.has(k)) taken(input);
    seen.add(k);
  }
}

/** Upgrade vars: update the var of the same key and category, else add one (inferred: "used to supply new inputs"). */
export function upsertVars(ctx: Ctx, ws: Workspace, inputs: VarInput[]): void {
  for (const input of inputs) {
    const found = ws.vars.find((v) => v.key === input.key && v.category === (input.category ?? 'terraform'));
    if (found) applyUpdate(ctx, found, input);
    else ws.vars.push(newVar(ctx, input));
  }
}

function applyUpdate(ctx: Ctx, v: WorkspaceVar, input: VarInput): void {
  if (input.key !== undefined) v.key = input.key;
  if (input.value !== undefined) v.value = input.value;
  if (input.description !== undefined) v.description = input.description;
  if (input.category !== undefined) v.category = input.category;
  if (input.hcl !== undefined) v.hcl = input.hcl;
  if (input.sensitive !== undefined) v.sensitive = input.sensitive;
  v.versionId = ctx.store.ids.hex();
}

function findVar(ws: Workspace, id: string | undefined): WorkspaceVar {
  const v = ws.vars.find((x) => x.id === id);
  if (!v) throw notFound();
  return v;
}

export const varRoutes: Route[] = [
  {
    // Not paginated (VARS).
    method: 'GET',
    pattern: '/workspaces/:id/vars',
    handler: (ctx, p) => {
      const ws = findWorkspace(ctx, p.id);
      return ok({ data: ws.vars.map((v) => varResource(ws, v)) });
    },
  },
  {
    // Show one variable: go-tfe's Variables.Read, which the provider's tfe_variable refresh calls.
    method: 'GET',
    pattern: '/workspaces/:id/vars/:varId',
    handler: (ctx, p) => {
      const ws = findWorkspace(ctx, p.id);
      return ok({ data: varResource(ws, findVar(ws, p.varId)) });
    },
  },
  {
    method: 'POST',
    pattern: '/workspaces/:id/vars',
    handler: (ctx, p) => {
      const ws = findWorkspace(ctx, p.id);
      const data = dataOf(ctx.body);
      requireType(data, ['vars']);
      const input = readVarAttributes(data.object('attributes', { required: true }) as Fields, true);
      checkNewVars(ws.vars, [input]);
      const v = newVar(ctx, input);
      ws.vars.push(v);
      return ok({ data: varResource(ws, v) }, 201);
    },
  },
  {
    method: 'PATCH',
    pattern: '/workspaces/:id/vars/:varId',
    handler: (ctx, p) => {
      const ws = findWorkspace(ctx, p.id);
      const v = findVar(ws, p.varId);
      const data = dataOf(ctx.body);
      // The body must carry data.id (VARS, OAS).
      const id = data.string('id');
      if (!id) throw invalid('/data/id', 'data.id is required');
      if (id !== v.id) throw invalid('/data/id', 'data.id does not match the variable in the path');
      if (data.value.type !== undefined) requireType(data, ['vars']);
      const input = readVarAttributes(data.object('attributes') ?? new Fields({}, '/data/attributes'), false);
      // Turning sensitivity off is refused: the value was "written once and not visible thereafter" (VARS); the
      // provider replaces the variable instead (docs/reference/hcp-terraform-api.md §6, PV resource_tfe_variable.go).
      if (v.sensitive && input.sensitive === false) throw invalid(`${input.pointer}/sensitive`, 'Sensitive variables cannot be made non-sensitive');
      const others = ws.vars.filter((x) => x.id !== v.id);
      checkNewVars(others, [{ ...input, key: input.key ?? v.key, category: input.category ?? v.category }]);
      applyUpdate(ctx, v, input);
      return ok({ data: varResource(ws, v) });
    },
  },
  {
    method: 'DELETE',
    pattern: '/workspaces/:id/vars/:varId',
    handler: (ctx, p) => {
      const ws = findWorkspace(ctx, p.id);
      const v = findVar(ws, p.varId);
      ws.vars = ws.vars.filter((x) => x.id !== v.id);
      return noContent();
    },
  },
];
