import type { HttpResponse } from '../../../http/types.js';
import type { JsonValue } from '../../../model/json.js';
import { canonicalJson } from '../../../plan/canonical.js';
import type { CallContext, JsonApiTransport } from '../../../providers/tfe/jsonapi-transport.js';
import { parseDocument, WireError, type JsonApiResource } from '../../../providers/tfe/wire.js';
import { RegistryModulesClient } from './registry-modules.js';
import { parseNoCodeModule, parseVariableOption, type NoCodeModuleWire, type VariableOptionWire } from './wire.js';

/*
 * The no-code module endpoints (docs/reference/hcp-terraform-api.md §1) over the provider's JSON:API transport,
 * which only a NoCodeModule reads and writes. Request pointers of a 422 map to the manifest through POINTERS.
 */

/** Request pointers → manifest pointers (the attribute names of the bodies below). */
export const POINTERS: Record<string, string> = {
  '/data/attributes/version-pin': '/spec/versionPin',
  '/data/attributes/enabled': '/spec/enabled',
  '/data/relationships/registry-module': '/spec/registryModule',
  '/data/relationships/variable-options/data': '/spec/variableOptions',
  '/data/relationships/variable-options': '/spec/variableOptions',
};

export interface NoCodeModuleBody {
  registryModuleId: string;
  versionPin: string;
  enabled: boolean;
  variableOptions: { variableName: string; variableType: string; options: JsonValue[] }[];
}

export interface NoCodeModuleRead {
  module: NoCodeModuleWire;
  options: VariableOptionWire[];
}

function noCodeModuleDocument(body: NoCodeModuleBody): unknown {
  return {
    data: {
      type: 'no-code-modules',
      // `enabled` is always sent: the spec says it defaults to false, the real service to true
      // (reference "Spec versus real service").
      attributes: { 'version-pin': body.versionPin, enabled: body.enabled },
      relationships: {
        // go-tfe requires the registry module on update too (docs/reference/hcp-terraform-api.md §1.2).
        'registry-module': { data: { id: body.registryModuleId, type: 'registry-module' } },
        // The whole set without ids: replace, never duplicate (docs/reference/hcp-terraform-api.md §1.2, PV test).
        'variable-options': {
          data: body.variableOptions.map((o) => ({
            type: 'variable-options',
            attributes: { 'variable-name': o.variableName, 'variable-type': o.variableType, options: o.options },
          })),
        },
      },
    },
  };
}

function readNoCodeDoc(data: JsonApiResource, included: JsonApiResource[], what: string): NoCodeModuleRead {
  const module = parseNoCodeModule(data, what);
  // Included variable options, whatever the type string's spelling (reference "Surprises" 3).
  const options = included
    .filter((r) => /^variable[-_]options?$/.test(r.type) || r.id.startsWith('ncvaropt-') || typeof r.attributes['variable-name'] === 'string')
    .map((r) => parseVariableOption(r, what));
  return { module, options };
}

function modulePath(id: string): string {
  return `/no-code-modules/${encodeURIComponent(id)}`;
}

/** The documented spelling of the include (docs/reference/hcp-terraform-api.md §1.3). */
const WITH_OPTIONS = { include: 'variable_options' };

/** No-code modules (docs/reference/hcp-terraform-api.md §1): enable, read, update, delete. */
export class NoCodeModulesClient {
  private readonly registry: RegistryModulesClient;

  constructor(private readonly api: JsonApiTransport) {
    this.registry = new RegistryModulesClient(api);
  }

  async enableNoCodeModule(body: NoCodeModuleBody, ctx: CallContext): Promise<NoCodeModuleRead> {
    const { data, included } = await this.api.one(
      {
        method: 'POST',
        path: `/organizations/${this.api.org}/no-code-modules`,
        body: noCodeModuleDocument(body),
        // Not idempotent: after a lost reply, the registry module names the no-code module the attempt made (docs/architecture.md "Rules the code keeps").
        readBack: () => this.readBackNoCodeModule(body.registryModuleId),
      },
      { ...ctx, pointers: { ...POINTERS, ...ctx.pointers }, refusesOrganizationTokens: true },
    );
    return readNoCodeDoc(data, included, ctx.what);
  }

  /** `GET /no-code-modules/:id?include=variable_options`; 404 → null. */
  async readNoCodeModule(id: string, ctx: CallContext): Promise<NoCodeModuleRead | null> {
    const doc = await this.api.oneOrNull(modulePath(id), WITH_OPTIONS, ctx);
    return doc === null ? null : readNoCodeDoc(doc.data, doc.included, ctx.what);
  }

  /** The answer is not used: any 2xx is success, whatever its body (reference "Surprises" 1). */
  async updateNoCodeModule(id: string, body: NoCodeModuleBody, ctx: CallContext): Promise<void> {
    await this.api.send(
      {
        method: 'PATCH',
        path: modulePath(id),
        body: noCodeModuleDocument(body),
        // After a 5xx or a lost reply, a module that already holds what was sent needs nothing more;
        // otherwise the PATCH is sent again (it replaces the whole set, so a second one changes nothing more).
        readBack: () => this.readBackModuleUpdate(id, body, ctx.what),
      },
      { ...ctx, pointers: { ...POINTERS, ...ctx.pointers }, refusesOrganizationTokens: true },
    );
  }

  /** `DELETE /no-code-modules/:id` (undocumented in NC, used by go-tfe and the provider). 404 → false (already gone). */
  async deleteNoCodeModule(id: string, ctx: CallContext): Promise<boolean> {
    return this.api.sendOrGone({ method: 'DELETE', path: modulePath(id) }, ctx);
  }

  /** The no-code module of a registry module, as the raw answer of its read (the enable answer's shape); undefined when none. */
  private async readBackNoCodeModule(registryModuleId: string): Promise<HttpResponse | undefined> {
    const rm = (await this.registry.listRegistryModules()).find((m) => m.id === registryModuleId);
    const id = rm?.noCodeModuleIds[0];
    if (id === undefined) return undefined;
    return this.api.readBackGet(modulePath(id), WITH_OPTIONS);
  }

  /** The module's read when it holds what the PATCH sent (read-back.ts), else undefined: send it again. */
  private async readBackModuleUpdate(id: string, body: NoCodeModuleBody, what: string): Promise<HttpResponse | undefined> {
    const res = await this.api.readBackGet(modulePath(id), WITH_OPTIONS);
    if (res === undefined) return undefined;
    const doc = parseDocument(JSON.parse(res.text) as unknown, what);
    // A success without the module cannot tell whether the PATCH took: the original failure stands.
    if (doc.data === null) throw new WireError(what, 'a success (200) with data null');
    const read = readNoCodeDoc(doc.data, doc.included, what);
    return moduleHolds(read.module, read.options, body) ? res : undefined;
  }
}

/*
 * What a read after a lost or failed write must see to count the write as done (docs/architecture.md "Rules the code
 * keeps": a non-idempotent write is sent again only after a read finds it was not done).
 */

/** What `PATCH /no-code-modules/:id` sends (NoCodeModuleBody), as far as a read shows it. */
export interface ModuleWrite {
  versionPin: string;
  enabled: boolean;
  variableOptions: readonly { variableName: string; variableType: string; options: JsonValue[] }[];
}

/**
 * The module holds what the PATCH sent: same pin, same `enabled`, and the same set of variable options (the
 * PATCH replaces the set, docs/reference/hcp-terraform-api.md §1.2; no options and an empty list both mean free text, §1.3).
 */
export function moduleHolds(module: NoCodeModuleWire, options: readonly VariableOptionWire[], sent: ModuleWrite): boolean {
  if (module.versionPin !== sent.versionPin || (module.enabled ?? true) !== sent.enabled) return false;
  const key = (o: { variableName: string; variableType: string; options: JsonValue[] | null }) => canonicalJson([o.variableName, o.variableType, o.options ?? []]);
  const have = options.map(key).sort();
  const want = sent.variableOptions.map(key).sort();
  return canonicalJson(have) === canonicalJson(want);
}
