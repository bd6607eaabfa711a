import type { KindDocument } from '../model/desired.js';
import type { Kind } from '../model/kinds.js';

/** One manifest document built from a live object (same shape `converge validate` accepts). */
export type ExportDocument = KindDocument;

/**
 * A secret field the export replaced with `{ fromEnv: env }`: the server never returns its value
 * (Nomad answers `redacted`, HCP Terraform omits sensitive variable values), so the user supplies it.
 */
export interface ExportedSecret {
  kind: Kind;
  name: string;
  /** Manifest path of the field, e.g. `spec.config.oidcClientSecret`. */
  path: string;
  env: string;
}

/** What one provider's export found. Plain data; nothing is printed. */
export interface ExportResult {
  documents: ExportDocument[];
  secrets: ExportedSecret[];
  /** Things worth telling people (e.g. a workspace skipped because it was not made from a no-code module). */
  notes: string[];
}

export function emptyResult(): ExportResult {
  return { documents: [], secrets: [], notes: [] };
}
