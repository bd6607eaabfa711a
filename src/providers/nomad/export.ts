import type { Kind } from '../../model/kinds.js';
import type { NomadBindingRuleSpec } from '../../kinds/nomad-binding-rule/spec.js';
import { manifestName, NameAllocator } from '../export-names.js';
import { emptyResult, type ExportResult } from '../export-types.js';
import type { NomadClient } from './client.js';
import { allRemotes } from './remotes.js';
import { connectNomad, type NomadProviderOptions } from './provider.js';
import { bindingRuleSpecFromWire } from './mapping.js';
import type { WireBindingRule } from './wire.js';

/*
 * `converge export` for Nomad: live ACL policies, roles, auth methods and binding rules as manifest documents.
 * Read-only: one list and one GET per object (docs/reference/nomad-api.md §2, §10), nothing else.
 * The live object goes through the same wire → manifest mapping the plan uses
 * (each kind's remote mapping, and mapping.ts bindingRuleSpecFromWire), so a plan of the exported
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
  for (const remote of allRemotes()) if (kinds.has(remote.kind)) await remote.export(client, result);
  return result;
}

/**
 * Binding rules have no name in Nomad, only a server-made UUID (docs/reference/nomad-api.md §10); converge needs one.
 * It is derived from what the rule does, `<authMethod>-<bindName>` (`-management` for that bind
 * type), made manifest-safe; repeats get `-2`, `-3`, … in a stable order (by the derived name, then
 * selector, description and ID), so exporting twice gives the same names.
 */
export function bindingRuleDocuments(rules: readonly WireBindingRule[]): { name: string; spec: NomadBindingRuleSpec; id: string }[] {
  const candidates = rules.map((r) => {
    const spec = bindingRuleSpecFromWire(r);
    const what = spec.bindType === 'management' ? 'management' : (spec.bindName ?? spec.bindType);
    return { base: manifestName(`${spec.authMethod}-${what}`, 'rule'), spec, r };
  });
  candidates.sort(
    (a, b) =>
      cmp(a.base, b.base) || cmp(a.r.Selector, b.r.Selector) || cmp(a.r.Description, b.r.Description) || cmp(a.r.ID, b.r.ID),
  );
  const names = new NameAllocator();
  return candidates.map((c) => ({ name: names.take(c.base), spec: c.spec, id: c.r.ID }));
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
