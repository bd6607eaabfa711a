import type { RuleDoc, RuleSink, SinkFor } from './rule-sink.js';
import type { Address, Kind } from '../model/kinds.js';
import type { SpecByKind } from '../model/specs.js';

/** A place in a spec that may hold a secret (a literal, `{ fromEnv }` or `{ fromFile }`). */
export interface SecretSite {
  /** JSON pointer from the document root, e.g. `/spec/config/oidcClientSecret`. */
  pointer: string;
  value: unknown;
  /** A literal here is a secret written into the file (warned about). */
  sensitive: boolean;
  /** For messages: "the OIDC client secret". */
  what: string;
}

/**
 * The objects one object needs: each is created before and deleted after it. Called with the desired
 * spec, or for a delete (no manifest) with the live or recorded fields, which providers keep under the
 * same manifest paths (`authMethod`, `policies`), so one function reads both.
 */
export type References = (fields: Readonly<Record<string, unknown>>) => Address[];

/**
 * What a kind's remote half (`remote/index.ts`) says of itself, whatever its provider: the provider that
 * loads it checks that it is its own and of this kind, then uses it as its own interface
 * (for Nomad, `NomadKindRemote` in src/providers/nomad/kind-remote.ts).
 */
export interface KindRemoteBase<K extends Kind = Kind> {
  /** Id of the provider module whose interface it implements. */
  readonly provider: string;
  readonly kind: K;
}

/**
 * Everything converge knows about one kind apart from its remote API (that is its provider's):
 * schema, semantic rules, secrets, references, export file. One object per kind folder, listed once
 * in registry.ts; the manifest loader, the engine, export and the CLI read only this.
 */
export interface KindDefinition<K extends Kind = Kind> {
  kind: K;
  /** Id of the provider module that serves it (src/providers/registry.ts). */
  provider: string;
  /** File under schemas/ holding the kind's JSON Schema (draft-07). */
  schemaFile: string;
  /** File `converge export --out` writes the kind's documents to. */
  exportFile: string;
  /**
   * How a live object is found for a document, when not simply by its name: said when `converge
   * import` finds none (a binding rule has no name on the server).
   */
  matchedBy?: string;
  /**
   * What a `Moved` document (a rename) does to a live object of this kind (docs/manifests.md "Moved"):
   * `in-place`, the service renames the object and keeps its id (an update carrying the new name);
   * `state-only`, the name is converge's own, so only the state record moves. Absent: the live
   * identity is the name itself, so a rename is a delete and a create, which the plan says.
   */
  rename?: 'in-place' | 'state-only';
  /** The objects this one depends on (kinds listed before it in registry.ts). */
  references?: References;
  /**
   * Loads the kind's remote half, only when a provider asks: `() => import('./remote/index.js').then((m) => m.remote)`.
   * A lazy import, so the registry and the manifest loader never load it, nor any HTTP code (decisions §21,
   * §44); lint lets a kind's `index.ts` import only its own `remote/`, and only so. Absent: the kind's
   * provider keeps the remote half itself.
   */
  remote?: () => Promise<KindRemoteBase<K>>;
  /** Rules of one document that passed (or, with the schema's findings filtered out, failed) its schema. */
  check(d: RuleSink, spec: SpecByKind[K]): void;
  /** Rules that need every document of the run (`docs` in file order, every kind); `sinkFor` takes a document's findings. */
  checkAcross?<D extends RuleDoc>(docs: readonly D[], sinkFor: SinkFor<D>): void;
  /** Where the spec may hold secrets. */
  secretSites?(spec: SpecByKind[K]): SecretSite[];
  /**
   * The spec as the providers get it. `numberSource` maps the JSON pointer of each plain YAML number
   * whose text differs from its printed value to the text as written (`1.10`, `0128`).
   */
  normalise?(spec: SpecByKind[K], numberSource: Readonly<Record<string, string>>): SpecByKind[K];
}

/** The union every registry entry fits (each keeps its own K inside). */
export type AnyKindDefinition = { [K in Kind]: KindDefinition<K> }[Kind];
