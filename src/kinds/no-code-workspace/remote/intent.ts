import { addressKey } from '../../../model/kinds.js';
import type { DesiredObject } from '../../../model/desired.js';
import type { JsonValue } from '../../../model/json.js';
import type { WorkspaceVariableSpec } from '../spec.js';
import type { TfeVariable, TfeVariableOp, TfeWorkspaceIntent, TfeWorkspaceSettings } from '../intent.js';
import { joinPath } from '../../../plan/diff.js';
import type { Change } from '../../../plan/types.js';
import type { ObjectView, RefineContext } from '../../../providers/provider.js';
import { isSecretVariable, varCategory, varId, varText } from './mapping.js';

/*
 * The intent of a NoCodeModule or NoCodeWorkspace change (plan/intent.ts): built at plan time from
 * what load read (registry module id, project id, variable ids, the NoCodeModule's id), so apply
 * sends it without looking anything up again. Pure. What is sent follows the change's own field
 * list, matched by the exact paths mapping.ts builds: a reviewer's field list is what goes out.
 */

type WorkspaceDesired = DesiredObject<'NoCodeWorkspace'>;

/** Live variable ids by `category:key`, as load kept them in the live view. */
export function liveVarIds(extra: Record<string, JsonValue> | undefined): Record<string, { id: string; sensitive: boolean; versionId: string | null }> {
  const v = extra?.vars;
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return {};
  const out: Record<string, { id: string; sensitive: boolean; versionId: string | null }> = {};
  for (const [k, x] of Object.entries(v)) {
    if (typeof x === 'object' && x !== null && !Array.isArray(x) && typeof x.id === 'string') {
      out[k] = { id: x.id, sensitive: x.sensitive === true, versionId: typeof x.versionId === 'string' ? x.versionId : null };
    }
  }
  return out;
}

/** A variable as sent; a secret's value stays in the manifest until the request is made. */
function variableOf(v: WorkspaceVariableSpec): TfeVariable {
  return {
    key: v.key,
    category: varCategory(v),
    description: v.description ?? '',
    hcl: v.hcl ?? false,
    sensitive: v.sensitive ?? false,
    // An omitted value is the spec's default, the empty string.
    value: isSecretVariable(v) && v.value !== undefined ? { manifest: true } : { text: v.value === undefined ? '' : varText(v.value) },
  };
}

/** The settings of PATCH /workspaces/:id (docs/reference/hcp-terraform-api.md §5) whose field the change lists. */
function settingsOf(d: WorkspaceDesired, changed: (path: string) => boolean, projectId: string | undefined): TfeWorkspaceSettings | undefined {
  const spec = d.spec;
  const body: TfeWorkspaceSettings = {};
  // A Moved document's rename: PATCH with the new name keeps the id, runs and state (docs/reference/hcp-terraform-api.md §5).
  if (changed('name')) body.name = d.name;
  if (changed('description')) body.description = spec.description ?? '';
  if (changed('executionMode') || changed('agentPoolId')) {
    body.executionMode = spec.executionMode ?? 'remote';
    // agent-pool-id only with agent mode (docs/reference/hcp-terraform-api.md §5: forbidden for remote).
    if (body.executionMode === 'agent') body.agentPoolId = spec.agentPoolId ?? null;
  }
  if (changed('autoApply')) body.autoApply = spec.autoApply ?? false;
  if (changed('sourceName')) body.sourceName = spec.sourceName ?? null;
  if (changed('sourceUrl')) body.sourceUrl = spec.sourceUrl ?? null;
  // Without a project in the manifest, converge does not move the workspace (mapping.ts).
  if (changed('project') && projectId !== undefined) body.projectId = projectId;
  return Object.keys(body).length > 0 ? body : undefined;
}

/**
 * Variable requests: create what is missing, update what the change lists (a changed secret digest
 * means write the value again), delete what converge manages and the manifest dropped. Sensitive
 * true→false is delete + create: the service never lets a value be read back (docs/reference/hcp-terraform-api.md §6).
 */
function variableOps(view: ObjectView, d: WorkspaceDesired, touched: (path: string) => boolean): TfeVariableOp[] {
  const live = liveVarIds(view.live?.extra);
  const ops: TfeVariableOp[] = [];
  const wanted = new Set<string>();
  for (const v of d.spec.variables ?? []) {
    const category = varCategory(v);
    wanted.add(varId(category, v.key));
    const have = live[varId(category, v.key)];
    const variable = variableOf(v);
    if (!have) ops.push({ op: 'create', variable });
    else if (have.sensitive && v.sensitive !== true) ops.push({ op: 'replace', id: have.id, variable });
    else if (touched(joinPath(joinPath('variables', category), v.key))) ops.push({ op: 'update', id: have.id, variable });
  }
  // Managed variables the manifest no longer declares (live fields hold only managed ones).
  const liveVars = view.live?.fields.variables;
  if (typeof liveVars === 'object' && liveVars !== null && !Array.isArray(liveVars)) {
    for (const [category, keys] of Object.entries(liveVars)) {
      if (typeof keys !== 'object' || keys === null || Array.isArray(keys)) continue;
      for (const key of Object.keys(keys)) {
        const have = live[varId(category, key)];
        if (!wanted.has(varId(category, key)) && have) ops.push({ op: 'delete', id: have.id, key, category });
      }
    }
  }
  return ops;
}

/**
 * The id of the NoCodeModule a workspace runs, when the plan can know it: the module is live. Else it
 * is created (or created again, after it went missing live) earlier in the same apply, and apply takes
 * the id that create records: never the id in the state alone, which a module gone missing no longer has.
 */
function plannedModuleId(all: ReadonlyMap<string, ObjectView>, module: string): string | null {
  return all.get(addressKey({ kind: 'NoCodeModule', name: module }))?.live?.id ?? null;
}

export function workspaceIntent(view: ObjectView, change: Change, all: ReadonlyMap<string, ObjectView>, how: RefineContext): TfeWorkspaceIntent | undefined {
  const d = view.desired?.object as WorkspaceDesired | undefined;
  if (!d) return undefined;
  const projectId = view.desired?.ids?.projectId;
  if (change.action === 'create') {
    const spec = d.spec;
    const executionMode = spec.executionMode ?? 'remote';
    return {
      type: 'tfe.no-code-workspace.v1',
      create: {
        module: spec.module,
        moduleId: plannedModuleId(all, spec.module),
        name: d.name,
        description: spec.description ?? '',
        executionMode,
        agentPoolId: executionMode === 'agent' ? (spec.agentPoolId ?? null) : null,
        autoApply: spec.autoApply ?? false,
        sourceName: spec.sourceName ?? null,
        sourceUrl: spec.sourceUrl ?? null,
        projectId: projectId ?? null,
        variables: (spec.variables ?? []).map(variableOf),
      },
    };
  }
  if (change.action !== 'update' && change.action !== 'upgrade') return undefined;
  // `--rewrite` lists every field, so every setting and variable is sent again.
  const paths = new Set(change.fields.map((f) => f.path));
  const touched = (base: string) => how.rewrite || [...paths].some((p) => p === base || p.startsWith(`${base}.`));
  const settings = settingsOf(d, (path) => how.rewrite || paths.has(path), projectId);
  const variables = variableOps(view, d, touched);
  return { type: 'tfe.no-code-workspace.v1', ...(settings ? { settings } : {}), ...(variables.length > 0 ? { variables } : {}), moduleId: plannedModuleId(all, d.spec.module) };
}
