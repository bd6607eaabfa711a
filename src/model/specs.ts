/**
 * Desired specs as written in manifests (camelCase, acronyms as words), after schema validation.
 * Optional fields that are absent mean "the server default" and are normalised in each provider's mapping.
 *
 * Each kind's spec type lives in its folder under src/kinds/ and adds itself here by declaration
 * merging, so adding a kind touches no file outside its folder (and one registry line).
 */

export interface SettingsSpec {
  tfe?: { organization?: string };
  nomad?: { region?: string };
  /** `name`: the owner tag this state puts on the HCP Terraform workspaces it manages (docs/decisions.md §23). */
  state?:
    | { backend: 'local'; path?: string; name?: string }
    | { backend: 'nomad'; path?: string; lockPath?: string; namespace?: string; name?: string };
  /** Named targets the same manifests apply to, one per run with `--env NAME` (docs/environments.md). */
  environments?: Record<string, EnvironmentSpec>;
}

/** One environment: its fields replace the top-level Settings fields of the same name; `values` feed `{ fromValue: NAME }`. */
export interface EnvironmentSpec {
  description?: string;
  nomad?: { address?: string; region?: string };
  tfe?: { address?: string; organization?: string };
  state?: { backend?: 'local' | 'nomad'; path?: string; lockPath?: string; namespace?: string; name?: string };
  values?: Record<string, unknown>;
}

/** Kind name → spec type; filled in by `src/kinds/<kind>/spec.ts`. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- members come from declaration merging
export interface SpecByKind {}
