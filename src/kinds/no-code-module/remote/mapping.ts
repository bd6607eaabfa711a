import type { JsonValue } from '../../../model/json.js';
import { compareVersions, semverParts } from '../../../providers/tfe/mapping.js';
import type { NoCodeModuleSpec, VariableOptionSpec } from '../../no-code-module/spec.js';
import type { RegistryModuleWire, VariableOptionWire } from './wire.js';

/*
 * NoCodeModule wire ↔ model. Desired and live fields come out with the same paths and canonical values, so the
 * engine's generic diff compares them; each loosening says why. Version order is the provider's (mapping.ts).
 */

type Fields = Record<string, JsonValue>;

/**
 * The latest usable version: highest semver among `version-statuses` with status `ok`
 * (docs/reference/hcp-terraform-api.md §4: other statuses are still cloning/ingesting or failed). Pre-releases
 * are skipped unless nothing else exists, as Terraform's own version constraints do.
 */
export function latestVersion(versions: readonly { version: string; status: string }[]): string | null {
  const ok = versions.filter((v) => v.status === 'ok').map((v) => v.version);
  const releases = ok.filter((v) => semverParts(v)?.pre === '');
  const pool = releases.length > 0 ? releases : ok;
  return pool.sort(compareVersions).at(-1) ?? null;
}

/** `namespace/name/provider`, the manifest's `registryModule`. */
export function registryPath(m: Pick<RegistryModuleWire, 'namespace' | 'name' | 'provider'>): string {
  return `${m.namespace}/${m.name}/${m.provider}`;
}

/**
 * Variable options compared as a set keyed by `variable-name` (a map in the fields): the service
 * keeps one set per variable and an update replaces the set of the same name (docs/reference/hcp-terraform-api.md §1.2,
 * PV `..._update_variable_options`), so the order of the entries means nothing. The order of
 * `options` inside one entry is kept: it is the order the no-code UI offers the values in, and
 * the provider stores them as an ordered list (docs/reference/hcp-terraform-api.md §9, TypeList). Empty or omitted options
 * both mean "free text" (docs/reference/hcp-terraform-api.md §1.3, PR #2074), so both normalise to [].
 */
export function variableOptionsMap(list: readonly (VariableOptionSpec | VariableOptionWire)[]): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {};
  for (const o of [...list].sort((a, b) => (a.variableName < b.variableName ? -1 : a.variableName > b.variableName ? 1 : 0))) {
    out[o.variableName] = { type: o.variableType, options: o.options ?? [] };
  }
  return out;
}

/** Desired NoCodeModule fields. `versionPin` is the resolved pin (the latest when the manifest omits it). */
export function desiredModuleFields(spec: NoCodeModuleSpec, resolvedPin: string | null): Fields {
  return {
    registryModule: spec.registryModule,
    versionPin: resolvedPin,
    // The real service defaults `enabled` to true; converge documents true as its default and
    // always sends the value (reference "Spec versus real service").
    enabled: spec.enabled ?? true,
    variableOptions: variableOptionsMap(spec.variableOptions ?? []),
  };
}

/**
 * Live NoCodeModule fields. An empty or null `version-pin` means "latest" (docs/reference/hcp-terraform-api.md §1.1 GT-IT:
 * it comes back empty when none was given), so it normalises to the latest version.
 */
export function liveModuleFields(
  m: { enabled: boolean | null; versionPin: string | null },
  options: readonly VariableOptionWire[],
  registryModule: string,
  latest: string | null,
): Fields {
  return {
    registryModule,
    versionPin: m.versionPin === null || m.versionPin === '' ? latest : m.versionPin,
    enabled: m.enabled ?? true,
    variableOptions: variableOptionsMap(options),
  };
}

/** The body's variable options from the manifest: every entry, `options` [] when omitted. */
export function moduleOptionsBody(spec: NoCodeModuleSpec): { variableName: string; variableType: string; options: JsonValue[] }[] {
  return (spec.variableOptions ?? []).map((o) => ({ variableName: o.variableName, variableType: o.variableType, options: o.options ?? [] }));
}

