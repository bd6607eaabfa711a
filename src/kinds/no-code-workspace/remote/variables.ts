import type { JsonValue } from '../../../model/json.js';
import type { PlannedChange } from '../../../providers/provider.js';
import { liveVarIds } from './intent.js';
import { isSecretVariable, varCategory, varId } from './mapping.js';
import { type Env, type WorkspaceDesired } from './env.js';

/*
 * The secret version ids kept after workspace variables are written (the requests themselves are the
 * plan's intent, sent by send-intent.ts).
 */

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
    const vars = await env.session.client.variables.listVars(workspaceId, { what: `variables of workspace ${d.name}` });
    for (const v of vars) if (ids.has(varId(v.category, v.key)) && v.versionId !== null) out[varId(v.category, v.key)] = v.versionId;
  } else {
    for (const [id, v] of Object.entries(liveVarIds(p.view.live?.extra))) if (ids.has(id) && v.versionId !== null) out[id] = v.versionId;
  }
  return { secretVersions: out };
}
