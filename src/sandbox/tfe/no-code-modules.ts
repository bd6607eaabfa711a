import { dataOf, relationshipId, requireType, type Fields } from './body.js';
import { noContent, ok, type Ctx, type Route } from './context.js';
import { invalid, notFound, unprocessable } from './errors.js';
import { parseInclude } from './include.js';
import { requireOrg } from './list.js';
import { latestOkVersion, type NoCodeModule, type RegistryModule, type VariableOption } from './model.js';
import { moduleVariableResources } from './registry-wire.js';
import { noCodeModuleResource, variableOptionResource } from './no-code-wire.js';

/** No-code modules: enable, update, read, delete, module variables (docs/reference/hcp-terraform-api.md §1). */

/** Exact 422 text for a pin that is not an ingested version (docs/reference/hcp-terraform-api.md §1.1, GT-IT, provider #1359). */
export const BAD_PIN_DETAIL =
  'Validation failed: Provided version pin is not equal to latest or provided string does not represent an existing version of the module.';

// Request samples use singular `registry-module`, go-tfe the plural (reference "Surprises" 3).
const MODULE_TYPES = ['registry-module', 'registry-modules'];

export function findNoCode(ctx: Ctx, id: string | undefined): NoCodeModule {
  const n = ctx.store.noCodeModules.get(id ?? '');
  if (!n) throw notFound();
  return n;
}

function registryModule(ctx: Ctx, id: string): RegistryModule {
  const m = ctx.store.modules.get(id);
  // An unknown registry module is "not found" (docs/reference/hcp-terraform-api.md §8: 404 for not found).
  if (!m) throw notFound();
  return m;
}

function checkPin(m: RegistryModule, pin: string): void {
  if (!m.versions.some((v) => v.version === pin && v.status === 'ok')) throw unprocessable(BAD_PIN_DETAIL);
}

/** `variable-options.data[]`: name and type required, options optional (free text when empty, docs/reference/hcp-terraform-api.md §1.3). */
function readOptions(data: Fields, existing: VariableOption[], ctx: Ctx): VariableOption[] | undefined {
  const rel = data.object('relationships')?.object('variable-options');
  if (!rel) return undefined;
  const items = rel.objects('data');
  if (!items) return [];
  const out: VariableOption[] = [];
  for (const item of items) {
    if (item.value.type !== undefined) requireType(item, ['variable-options']);
    const attrs = item.object('attributes', { required: true }) as Fields;
    const variableName = attrs.requiredString('variable-name');
    const variableType = attrs.requiredString('variable-type');
    const options = attrs.array('options') ?? [];
    const givenId = item.string('id');
    // Replace semantics (docs/reference/hcp-terraform-api.md §1.2): a given id replaces that set; without an id, the set of the same
    // variable name is replaced (the provider sends the full list without ids and expects no duplicates).
    const previous = existing.find((o) => (givenId ? o.id === givenId : o.variableName === variableName));
    const entry = { id: previous?.id ?? ctx.store.ids.next('ncvaropt'), variableName, variableType, options };
    const dup = out.findIndex((o) => o.variableName === variableName);
    if (dup >= 0) out[dup] = entry;
    else out.push(entry);
  }
  return out;
}

function readReply(ctx: Ctx, n: NoCodeModule, withOptions: boolean) {
  return ok({
    data: noCodeModuleResource(ctx.store, n),
    ...(withOptions ? { included: n.options.map((o) => variableOptionResource(n, o)) } : {}),
  });
}

function enable(ctx: Ctx, p: Record<string, string>) {
  requireOrg(ctx, p.org);
  const data = dataOf(ctx.body);
  requireType(data, ['no-code-modules']);
  const attrs = data.object('attributes');
  const moduleId = relationshipId(data, 'registry-module', MODULE_TYPES);
  if (moduleId === undefined) throw invalid('/data/relationships/registry-module', 'registry-module relationship is required');
  const m = registryModule(ctx, moduleId);
  const enabled = attrs?.bool('enabled');
  const pin = attrs?.string('version-pin', { nullable: true });
  const options = readOptions(data, [], ctx) ?? [];
  // At most one no-code module per registry module (docs/reference/hcp-terraform-api.md §1.5: undocumented; a simulator should reject it).
  if (ctx.store.noCodeOf(m.id)) {
    throw invalid('/data/relationships/registry-module', 'Registry module already has a no-code module; update it instead');
  }
  // Pin default: the latest version (§1.1).
  const versionPin = pin ? pin : (latestOkVersion(m) ?? '');
  if (versionPin === '') throw unprocessable(BAD_PIN_DETAIL);
  checkPin(m, versionPin);
  const now = new Date().toISOString();
  const n: NoCodeModule = {
    id: ctx.store.ids.next('nocode'),
    registryModuleId: m.id,
    versionPin,
    // The spec's default (false); the real service defaults to true (reference "Spec versus real service").
    enabled: enabled ?? false,
    options,
    createdAt: now,
    updatedAt: now,
  };
  ctx.store.noCodeModules.set(n.id, n);
  // 200, not 201 (docs/reference/hcp-terraform-api.md §1.1, "Surprises" 1).
  return readReply(ctx, n, false);
}

function update(ctx: Ctx, p: Record<string, string>) {
  const n = findNoCode(ctx, p.id);
  const data = dataOf(ctx.body);
  requireType(data, ['no-code-modules']);
  const attrs = data.object('attributes');
  const moduleId = relationshipId(data, 'registry-module', MODULE_TYPES) ?? n.registryModuleId;
  const m = registryModule(ctx, moduleId);
  if (m.id !== n.registryModuleId && ctx.store.noCodeOf(m.id)) {
    throw invalid('/data/relationships/registry-module', 'Registry module already has a no-code module');
  }
  const enabled = attrs?.bool('enabled');
  const pin = attrs?.string('version-pin', { nullable: true });
  const options = readOptions(data, n.options, ctx);
  // Omitted properties keep their value (§1.2).
  const versionPin = pin ? pin : n.versionPin;
  checkPin(m, versionPin);
  n.registryModuleId = m.id;
  n.versionPin = versionPin;
  if (enabled !== undefined) n.enabled = enabled;
  if (options !== undefined) n.options = options;
  n.updatedAt = new Date().toISOString();
  return readReply(ctx, n, false);
}

export const noCodeModuleRoutes: Route[] = [
  { method: 'POST', pattern: '/organizations/:org/no-code-modules', handler: enable, noOrgToken: true },
  { method: 'PATCH', pattern: '/no-code-modules/:id', handler: update, noOrgToken: true },
  {
    method: 'GET',
    pattern: '/no-code-modules/:id',
    handler: (ctx, p) => {
      const n = findNoCode(ctx, p.id);
      // Both spellings work: the docs' `variable_options` and go-tfe's `variable-options` (docs/reference/hcp-terraform-api.md §1.3).
      const include = parseInclude(ctx.url, ['variable_options', 'variable-options']);
      return readReply(ctx, n, include.size > 0);
    },
  },
  {
    // Not in the docs but real (docs/reference/hcp-terraform-api.md §1.4); 204 inferred.
    method: 'DELETE',
    pattern: '/no-code-modules/:id',
    handler: (ctx, p) => {
      const n = findNoCode(ctx, p.id);
      ctx.store.noCodeModules.delete(n.id);
      return noContent();
    },
  },
  {
    // Undocumented, BETA: a non-paginated list of the version's inputs (docs/reference/hcp-terraform-api.md §1.3).
    method: 'GET',
    pattern: '/no-code-modules/:id/versions/:version/module-variables',
    handler: (ctx, p) => {
      const n = findNoCode(ctx, p.id);
      const m = registryModule(ctx, n.registryModuleId);
      const v = m.versions.find((x) => x.version === p.version && x.status === 'ok');
      if (!v) throw notFound();
      return ok({ data: moduleVariableResources(ctx.store, n, v) });
    },
  },
];
