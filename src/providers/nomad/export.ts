import type { Kind } from '../../model/kinds.js';
import { emptyResult, type ExportResult } from '../export-types.js';
import type { NomadClient } from './client.js';
import { nomadRemotes } from './kind-remote.js';
import { connectNomad, type NomadProviderOptions } from './provider.js';

/*
 * `converge export` for Nomad: every live object of each kind the registry gives Nomad, as manifest documents.
 * Read-only: each kind's remote half lists and reads (docs/reference/nomad-api.md §2, §10), nothing else.
 * The live object goes through the same wire → manifest mapping the plan uses
 * (each kind's remote mapping), so a plan of the exported
 * documents compares equal field by field.
 */

/** The same connection settings as the provider's. */
export type NomadExportOptions = NomadProviderOptions;

export interface NomadExporter {
  export(kinds: ReadonlySet<Kind>): Promise<ExportResult>;
  close(): Promise<void>;
}

export function createNomadExporter(opts: NomadExportOptions): NomadExporter {
  const { http, ownsHttp, client } = connectNomad(opts);
  return {
    export: (kinds) => exportNomad(client, kinds),
    async close() {
      if (ownsHttp) await http.close();
    },
  };
}

export async function exportNomad(client: NomadClient, kinds: ReadonlySet<Kind>): Promise<ExportResult> {
  const result = emptyResult();
  // In the registry's order, each kind by its own remote half.
  for (const remote of (await nomadRemotes()).values()) if (kinds.has(remote.kind)) await remote.export(client, result);
  return result;
}
