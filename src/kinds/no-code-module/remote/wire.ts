import type { JsonValue } from '../../../model/json.js';
import { isObj, optBool, optStr, relMany, relOne, str, WireError, type JsonApiResource } from '../../../providers/tfe/wire.js';

/*
 * The JSON:API shapes a NoCodeModule reads, checked at the boundary with the provider's readers
 * (providers/tfe/wire.ts): a surprise is `tfe.response.invalid` naming the endpoint. Type strings are not checked.
 */

export interface RegistryModuleWire {
  id: string;
  name: string;
  namespace: string;
  provider: string;
  registryName: string;
  /** `version-statuses` (docs/reference/hcp-terraform-api.md §4): only `ok` versions are usable. */
  versions: { version: string; status: string }[];
  /** Ids of `relationships.no-code-modules.data` (filled with `include=no-code-modules`). */
  noCodeModuleIds: string[];
}

export function parseRegistryModule(r: JsonApiResource, what: string): RegistryModuleWire {
  const a = r.attributes;
  const p = `registry module ${r.id}`;
  const statuses = a['version-statuses'];
  const versions: { version: string; status: string }[] = [];
  if (Array.isArray(statuses)) {
    for (const s of statuses) {
      // An entry without a status is taken as usable: the status only ever marks versions still
      // ingesting or failed (docs/reference/hcp-terraform-api.md §4).
      if (isObj(s) && typeof s.version === 'string') versions.push({ version: s.version, status: typeof s.status === 'string' ? s.status : 'ok' });
    }
  }
  return {
    id: r.id,
    name: str(a, 'name', what, p),
    namespace: str(a, 'namespace', what, p),
    provider: str(a, 'provider', what, p),
    registryName: optStr(a, 'registry-name', what, p) ?? 'private',
    versions,
    noCodeModuleIds: relMany(r, 'no-code-modules'),
  };
}

export interface NoCodeModuleWire {
  id: string;
  enabled: boolean | null;
  /** May come back empty or null when none was given (docs/reference/hcp-terraform-api.md §1.1, GT-IT). */
  versionPin: string | null;
  registryModuleId: string | null;
  variableOptionIds: string[];
}

export function parseNoCodeModule(r: JsonApiResource, what: string): NoCodeModuleWire {
  const p = `no-code module ${r.id}`;
  return {
    id: r.id,
    enabled: optBool(r.attributes, 'enabled', what, p),
    versionPin: optStr(r.attributes, 'version-pin', what, p),
    registryModuleId: relOne(r, 'registry-module')?.id ?? null,
    variableOptionIds: relMany(r, 'variable-options'),
  };
}

export interface VariableOptionWire {
  id: string;
  variableName: string;
  variableType: string;
  options: JsonValue[] | null;
}

export function parseVariableOption(r: JsonApiResource, what: string): VariableOptionWire {
  const p = `variable option ${r.id}`;
  const options = r.attributes.options;
  if (options !== undefined && options !== null && !Array.isArray(options)) throw new WireError(what, `${p}.options is not a list`);
  return {
    id: r.id,
    variableName: str(r.attributes, 'variable-name', what, p),
    variableType: optStr(r.attributes, 'variable-type', what, p) ?? '',
    options: (options as JsonValue[] | undefined | null) ?? null,
  };
}
