import type { JsonValue } from '../../../model/json.js';
import { isSecretRef } from '../../../model/secret-ref.js';
import { joinPath } from '../../../plan/diff.js';
import { parseSourceModuleId } from '../../../providers/tfe/mapping.js';
import type { VarWire, WorkspaceWire } from '../../../providers/tfe/wire.js';
import type { NoCodeWorkspaceSpec, WorkspaceVariableSpec } from '../spec.js';

/*
 * NoCodeWorkspace wire ↔ model. Desired and live fields come out with the same paths and canonical values, so
 * the engine's generic diff compares them; each loosening says why.
 */

type Fields = Record<string, JsonValue>;

/** Identity of a workspace variable: the API allows one key per category (VARS). */
export function varId(category: string, key: string): string {
  return `${category}:${key}`;
}

export function varCategory(v: WorkspaceVariableSpec): string {
  return v.category ?? 'terraform';
}

/**
 * A variable whose value converge never compares or shows: `sensitive: true` (the service never
 * returns it, docs/reference/hcp-terraform-api.md §6) or a secret reference (`fromEnv`/`fromFile`: the manifest says it is a
 * secret, so it must not reach plans even when the service would return it).
 */
export function isSecretVariable(v: WorkspaceVariableSpec): boolean {
  return v.sensitive === true || isSecretRef(v.value);
}

/** Field path of a variable's value, e.g. `variables.terraform.db_password.value` (the DesiredView.secrets key). */
export function varValuePath(category: string, key: string): string {
  return joinPath(joinPath(joinPath('variables', category), key), 'value');
}

/** Values are sent as text (docs/manifests.md: numbers and booleans too). */
export function varText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * One variable's comparable fields. `description` null and "" are the same (the spec's default is
 * the empty string, the service may answer null); `hcl` defaults to false. The value is present
 * only for plain variables.
 */
function varFields(v: { description?: string | null | undefined; hcl?: boolean | undefined; sensitive?: boolean | undefined }, value?: string): Fields {
  return {
    ...(value !== undefined ? { value } : {}),
    description: v.description ?? '',
    hcl: v.hcl ?? false,
    sensitive: v.sensitive ?? false,
  };
}

/**
 * Both workspace categories are always present (possibly empty), so a new variable diffs as
 * `variables.env.<key>` rather than as the whole `variables.env` map.
 */
function emptyCategories(): Record<string, Record<string, JsonValue>> {
  return { terraform: {}, env: {} };
}

/** `variables.<category>.<key>` maps of the desired variables (secret values left out). */
export function desiredVariables(vars: readonly WorkspaceVariableSpec[]): Record<string, JsonValue> {
  const out = emptyCategories();
  for (const v of vars) {
    const category = varCategory(v);
    const value = isSecretVariable(v) || v.value === undefined ? undefined : varText(v.value);
    // An omitted value is the spec's default, the empty string.
    const plain = !isSecretVariable(v) ? (value ?? '') : undefined;
    (out[category] ??= {})[v.key] = varFields(v, plain);
  }
  return out;
}

/**
 * Live variables, restricted to the ones converge manages (`managed`: `category:key` of desired
 * and recorded variables): a variable someone else added to the workspace is theirs, and
 * converge neither shows nor deletes it. `secretIds` are the variables whose value converge
 * compares by digest only (see isSecretVariable): their live value, if any, is left out too.
 */
export function liveVariables(vars: readonly VarWire[], managed: ReadonlySet<string>, secretIds: ReadonlySet<string>): Record<string, JsonValue> {
  const out = emptyCategories();
  for (const v of vars) {
    const id = varId(v.category, v.key);
    if (!managed.has(id)) continue;
    const value = v.sensitive || secretIds.has(id) ? undefined : (v.value ?? '');
    (out[v.category] ??= {})[v.key] = varFields(v, value);
  }
  return out;
}

/** `category:key` of each variable in a `variables` field map (desired, live or recorded). */
export function variableIds(variables: JsonValue | undefined): string[] {
  if (typeof variables !== 'object' || variables === null || Array.isArray(variables)) return [];
  const ids: string[] = [];
  for (const [category, keys] of Object.entries(variables)) {
    if (typeof keys !== 'object' || keys === null || Array.isArray(keys)) continue;
    for (const key of Object.keys(keys)) ids.push(varId(category, key));
  }
  return ids.sort();
}

// --- workspaces ------------------------------------------------------------------------------

export type DeletionPolicy = 'safe' | 'destroy' | 'orphan';

export function isDeletionPolicy(v: unknown): v is DeletionPolicy {
  return v === 'safe' || v === 'destroy' || v === 'orphan';
}

export interface DesiredWorkspaceContext {
  /** Project name as the service spells it (filter[names] is case-insensitive), when the manifest names one. */
  project?: string;
  /** The module version the workspace will run: its module's resolved pin. */
  moduleVersion: string | null;
}

/**
 * Desired NoCodeWorkspace fields. Absent settings are the service defaults (docs/reference/hcp-terraform-api.md §2): description
 * "", execution mode `remote`, no agent pool, auto-apply false, no source name/url. `project` is
 * compared only when the manifest names one: without it the service picks the organization's
 * default project at creation, and converge does not manage where the workspace lives.
 * `deletion` is converge's own setting: it is compared against what the state recorded, so a
 * change of policy reaches the state before the manifest is removed.
 */
export function desiredWorkspaceFields(spec: NoCodeWorkspaceSpec, ctx: DesiredWorkspaceContext): Fields {
  return {
    module: spec.module,
    moduleVersion: ctx.moduleVersion,
    ...(ctx.project !== undefined ? { project: ctx.project } : {}),
    description: spec.description ?? '',
    executionMode: spec.executionMode ?? 'remote',
    agentPoolId: spec.agentPoolId ?? null,
    autoApply: spec.autoApply ?? false,
    sourceName: spec.sourceName ?? null,
    sourceUrl: spec.sourceUrl ?? null,
    variables: desiredVariables(spec.variables ?? []),
    deletion: spec.deletion ?? 'safe',
  };
}

export interface LiveWorkspaceContext {
  /** Name of the NoCodeModule (manifest or state) whose registry module the workspace runs. */
  module: string | null;
  /** Project name of the workspace's project (null: none) when compared; undefined: not compared. */
  project: string | null | undefined;
  /** Variables read, or undefined when they were not read (see README "Reading workspaces"). */
  vars: readonly VarWire[] | undefined;
  managed: ReadonlySet<string>;
  secretIds: ReadonlySet<string>;
  /** Deletion policy last recorded in state ('safe' when none). */
  deletion: DeletionPolicy;
}

/** Live NoCodeWorkspace fields, normalised like desiredWorkspaceFields. */
export function liveWorkspaceFields(ws: WorkspaceWire, ctx: LiveWorkspaceContext): Fields {
  const source = parseSourceModuleId(ws.sourceModuleId);
  return {
    module: ctx.module,
    moduleVersion: source?.version ?? null,
    ...(ctx.project !== undefined ? { project: ctx.project } : {}),
    // description: null and "" are the same (docs/reference/hcp-terraform-api.md §2: the default is empty, a read answers null).
    description: ws.description ?? '',
    executionMode: ws.executionMode ?? 'remote',
    agentPoolId: ws.agentPoolId,
    autoApply: ws.autoApply ?? false,
    sourceName: ws.sourceName,
    sourceUrl: ws.sourceUrl,
    variables: liveVariables(ctx.vars ?? [], ctx.managed, ctx.secretIds),
    deletion: ctx.deletion,
  };
}

