import type { Kind } from '../../model/kinds.js';
import { emptyResult, type ExportResult } from '../export-types.js';
import type { TfeClient } from './client.js';
import { connectTfe, type TfeProviderOptions } from './provider.js';
import { tfeRemotes } from './kind-remote.js';

/*
 * `converge export` for HCP Terraform: each kind's remote half reads its objects (GETs only) and appends
 * them as manifest documents, in the registry's order, so a kind finds the documents it names already there.
 */

/** The same connection settings as the provider's. */
export type TfeExportOptions = TfeProviderOptions;

export interface TfeExporter {
  export(kinds: ReadonlySet<Kind>): Promise<ExportResult>;
  close(): Promise<void>;
}

export function createTfeExporter(opts: TfeExportOptions): TfeExporter {
  const { http, ownsHttp, client } = connectTfe(opts);
  return {
    export: (kinds) => exportTfe(client, kinds),
    async close() {
      if (ownsHttp) await http.close();
    },
  };
}

/**
 * The kinds asked for, each through its remote half in the registry's order. A kind whose documents name
 * another kind's (a workspace its module) brings that kind along, with a note saying so: a workspace
 * document alone would not validate.
 */
export async function exportTfe(client: TfeClient, kinds: ReadonlySet<Kind>): Promise<ExportResult> {
  const result = emptyResult();
  const all = [...(await tfeRemotes()).values()];
  const along = new Set<Kind>();
  for (const remote of all) if (kinds.has(remote.kind) && remote.exportsWith && !kinds.has(remote.exportsWith.kind)) along.add(remote.exportsWith.kind);
  for (const remote of all) {
    if (!kinds.has(remote.kind) && !along.has(remote.kind)) continue;
    const before = result.documents.length;
    await remote.export(client, result);
    const count = result.documents.length - before;
    const brought = all.find((r) => kinds.has(r.kind) && r.exportsWith?.kind === remote.kind);
    if (along.has(remote.kind) && brought?.exportsWith && count > 0) result.notes.push(brought.exportsWith.note(count));
  }
  return result;
}
