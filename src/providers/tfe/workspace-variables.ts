import type { JsonValue } from '../../model/json.js';
import { isSecretRef } from '../../model/secret-ref.js';
import type { WorkspaceVariableSpec } from '../../kinds/no-code-workspace/spec.js';
import { canonicalJson } from '../../plan/canonical.js';
import type { PlannedChange } from '../provider.js';
import type { CallContext, VarBody } from './client.js';
import { isSecretVariable, varCategory, varId, varText, varValuePath } from './mapping.js';
import { type Env, type WorkspaceDesired } from './workspace-env.js';

/*
 * Workspace variables: the bodies sent, the sync of create/update/delete, and the secret version ids kept.
 */

export async function resolveValue(env: Env, d: WorkspaceDesired, v: WorkspaceVariableSpec): Promise<string | undefined> {
  if (v.value === undefined) return undefined;
  // Only a secret goes through the resolver, which registers its value with the redactor: a plain value
  // such as `prod` would otherwise be masked wherever it appears, workspace names and run URLs included.
  if (isSecretVariable(v) && (typeof v.value === 'string' || isSecretRef(v.value))) return env.ctx.secrets.resolve(v.value, d.baseDir);
  return typeof v.value === 'string' ? v.value : varText(v.value);
}

export async function varBody(env: Env, d: WorkspaceDesired, v: WorkspaceVariableSpec): Promise<VarBody> {
  const value = await resolveValue(env, d, v);
  return {
    key: v.key,
    ...(value !== undefined ? { value } : { value: '' }),
    description: v.description ?? '',
    category: varCategory(v),
    hcl: v.hcl ?? false,
    sensitive: v.sensitive ?? false,
  };
}

export function varCall(d: WorkspaceDesired, index: number | undefined, key: string): CallContext {
  return {
    what: `variable ${key} of workspace ${d.name}`,
    desired: d,
    ...(index !== undefined ? { pointers: { '/data': `/spec/variables/${index}` } } : {}),
  };
}

/**
 * `version-id` of each secret variable, as converge left it: a later load that sees another
 * version-id knows the value was rewritten outside converge, without ever reading it (reference
 * §6: "compare sensitive vars by version-id"). Read once after converge wrote variables; else
 * taken from the read load made.
 */
export async function secretVersions(env: Env, p: PlannedChange, d: WorkspaceDesired, workspaceId: string, wrote: boolean): Promise<Record<string, JsonValue>> {
  const ids = new Set((d.spec.variables ?? []).filter(isSecretVariable).map((v) => varId(varCategory(v), v.key)));
  if (ids.size === 0) return { secretVersions: {} };
  const out: Record<string, JsonValue> = {};
  if (wrote) {
    const vars = await env.session.client.listVars(workspaceId, { what: `variables of workspace ${d.name}` });
    for (const v of vars) if (ids.has(varId(v.category, v.key)) && v.versionId !== null) out[varId(v.category, v.key)] = v.versionId;
  } else {
    for (const [id, v] of Object.entries(liveVarMap(p))) if (ids.has(id) && v.versionId !== null) out[id] = v.versionId;
  }
  return { secretVersions: out };
}

export function liveVarMap(p: PlannedChange): Record<string, { id: string; sensitive: boolean; versionId: string | null }> {
  const v = p.view.live?.extra.vars;
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return {};
  const out: Record<string, { id: string; sensitive: boolean; versionId: string | null }> = {};
  for (const [k, x] of Object.entries(v)) {
    if (typeof x === 'object' && x !== null && !Array.isArray(x) && typeof x.id === 'string') {
      out[k] = { id: x.id, sensitive: x.sensitive === true, versionId: typeof x.versionId === 'string' ? x.versionId : null };
    }
  }
  return out;
}

export function fieldOf(map: JsonValue | undefined, category: string, key: string): JsonValue | undefined {
  if (typeof map !== 'object' || map === null || Array.isArray(map)) return undefined;
  const c = map[category];
  if (typeof c !== 'object' || c === null || Array.isArray(c)) return undefined;
  return c[key];
}

/**
 * Variables: create what is missing, update what differs (a changed secret digest means write
 * the value again), delete what converge manages and the manifest dropped. Sensitive true→false
 * is delete + create: the service never lets a value be read back (reference §6, PV).
 */
export async function syncVars(env: Env, p: PlannedChange, d: WorkspaceDesired, workspaceId: string): Promise<number> {
  const client = env.session.client;
  const live = liveVarMap(p);
  const desiredVars = p.view.desired?.fields.variables;
  const liveVars = p.view.live?.fields.variables;
  const changedSecrets = new Set(p.change.fields.filter((f) => f.sensitive).map((f) => f.path));
  const wanted = new Set<string>();
  let writes = 0;
  for (const [i, v] of (d.spec.variables ?? []).entries()) {
    const category = varCategory(v);
    const id = varId(category, v.key);
    wanted.add(id);
    const have = live[id];
    const call = varCall(d, i, v.key);
    if (!have) {
      await client.createVar(workspaceId, await varBody(env, d, v), call);
      writes++;
      continue;
    }
    if (have.sensitive && v.sensitive !== true) {
      await client.deleteVar(workspaceId, have.id, call);
      await client.createVar(workspaceId, await varBody(env, d, v), call);
      writes += 2;
      continue;
    }
    const plainDiffers = canonicalJson(fieldOf(desiredVars, category, v.key)) !== canonicalJson(fieldOf(liveVars, category, v.key));
    const secretChanged = isSecretVariable(v) && changedSecrets.has(varValuePath(category, v.key));
    if (plainDiffers || secretChanged) {
      await client.updateVar(workspaceId, have.id, await varBody(env, d, v), call);
      writes++;
    }
  }
  // Managed variables the manifest no longer declares (live fields hold only managed ones).
  if (typeof liveVars === 'object' && liveVars !== null && !Array.isArray(liveVars)) {
    for (const [category, keys] of Object.entries(liveVars)) {
      if (typeof keys !== 'object' || keys === null || Array.isArray(keys)) continue;
      for (const key of Object.keys(keys)) {
        const id = varId(category, key);
        const have = live[id];
        if (wanted.has(id) || !have) continue;
        await client.deleteVar(workspaceId, have.id, varCall(d, undefined, key));
        writes++;
      }
    }
  }
  return writes;
}
