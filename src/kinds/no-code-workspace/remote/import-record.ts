import type { JsonValue } from '../../../model/json.js';
import type { StateRecord } from '../../../state/types.js';
import type { LiveView, ObjectView } from '../../../providers/provider.js';
import { importRecordBase } from '../../../providers/tfe/export-record.js';
import { isSecretVariable, varCategory, varId } from './mapping.js';

/**
 * The state record `converge import` (or an adoption) writes for a workspace found live: the shape apply saves
 * (env.ts `saveRecord`), with `applied` taken from what the service holds now. Converge's own settings (its
 * `deletion`) exist only in the manifest and state, so they are recorded from the manifest.
 */
export function workspaceImportRecord(view: ObjectView & { live: LiveView }, all: ReadonlyMap<string, ObjectView>, now: Date): StateRecord {
  const { live, desired } = view;
  const base = importRecordBase(view, now);
  const object = desired?.object;
  const spec = object?.kind === 'NoCodeWorkspace' ? object.spec : undefined;
  const module = spec?.module;
  const moduleId = module === undefined ? null : (all.get(`NoCodeModule/${module}`)?.live?.id ?? null);
  return {
    ...base,
    applied: { ...live.fields, ...(desired?.fields.deletion !== undefined ? { deletion: desired.fields.deletion } : {}) },
    // See docs/export-import.md "Secrets": the manifest's values are recorded, unverified (docs/reference/hcp-terraform-api.md §6: never readable).
    secretDigests: { ...(desired?.secrets ?? {}) },
    extra: { workspaceId: live.id, moduleId, secretVersions: secretVersions(live, spec?.variables ?? []) },
  };
}

/**
 * `version-id` of each secret variable as it is now, so a later rewrite outside converge shows as
 * hidden drift (load.ts movedSecrets; docs/reference/hcp-terraform-api.md §6: compare sensitive variables by version-id).
 */
function secretVersions(live: LiveView, variables: readonly Parameters<typeof isSecretVariable>[0][]): Record<string, JsonValue> {
  const ids = new Set(variables.filter(isSecretVariable).map((v) => varId(varCategory(v), v.key)));
  const vars = live.extra.vars;
  const out: Record<string, JsonValue> = {};
  if (typeof vars !== 'object' || vars === null || Array.isArray(vars)) return out;
  for (const [id, v] of Object.entries(vars)) {
    if (!ids.has(id) || typeof v !== 'object' || v === null || Array.isArray(v)) continue;
    if (typeof v.versionId === 'string') out[id] = v.versionId;
  }
  return out;
}
