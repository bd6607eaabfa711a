import type { SourceRange } from '../diagnostics/types.js';
import type { Kind } from './kinds.js';
import type { SettingsSpec, SpecByKind } from './specs.js';

/** A document's kind, name and spec, whatever it came from (a manifest, or a live object as export builds it). */
export type KindDocument = { [K in Kind]: { kind: K; name: string; spec: SpecByKind[K] } }[Kind];

/** One manifest document after validation: what the user wants to exist. */
export interface DesiredObject<K extends Kind = Kind> {
  kind: K;
  name: string;
  /** `protect: true` — converge refuses to delete this object. */
  protect: boolean;
  spec: SpecByKind[K];
  /** Range of the whole document. */
  range: SourceRange;
  /**
   * Ranges of spec nodes keyed by JSON pointer relative to the document (`/spec/config/oidcClientId`),
   * so remote errors (a 422 `source.pointer`) can be mapped back to a file:line.
   */
  positions: Record<string, SourceRange>;
  /** Directory of the manifest file: `fromFile` secret references resolve against it. */
  baseDir: string;
  /**
   * The manifest file relative to the state root (the Settings document's directory, else the working
   * directory), as state records keep it (decisions.md §27). Absent in objects not made by the loader.
   */
  source?: string;
}

export type AnyDesired = { [K in Kind]: DesiredObject<K> }[Kind];

export interface Settings {
  spec: SettingsSpec;
  range?: SourceRange;
  /** Absolute directory of the file that holds the Settings document: the state root (decisions.md §27). */
  baseDir?: string;
  /** The environment of this run (`--env`), when one was chosen; `spec` is then already its settings. */
  environment?: { name: string; nomadAddress?: string; tfeAddress?: string };
}

/** Everything loaded from the manifests of one run. */
export interface DesiredSet {
  objects: AnyDesired[];
  settings: Settings;
  /**
   * Absolute directory a local state path and the recorded manifest paths are relative to: the Settings
   * document's directory, else the working directory (decisions.md §27). Set by the loader.
   */
  root?: string;
}
