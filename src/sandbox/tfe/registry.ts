import { ok, type Ctx, type Route } from './context.js';
import { notFound } from './errors.js';
import { parseInclude } from './include.js';
import { fuzzy, listReply, requireOrg } from './list.js';
import type { RegistryModule } from './model.js';
import { noCodeModuleResource } from './no-code-wire.js';
import { moduleVersionResource, registryModuleResource } from './registry-wire.js';

/** Private registry modules (docs/reference/hcp-terraform-api.md §4, §1.5). */

const INCLUDES = ['no-code-modules'] as const;

function included(ctx: Ctx, modules: RegistryModule[], include: Set<string>): unknown[] {
  if (!include.has('no-code-modules')) return [];
  return modules.flatMap((m) => {
    const ncm = ctx.store.noCodeOf(m.id);
    return ncm ? [noCodeModuleResource(ctx.store, ncm)] : [];
  });
}

function privateModule(ctx: Ctx, p: Record<string, string>): RegistryModule {
  requireOrg(ctx, p.org);
  // Only the private registry is modeled; the public registry path answers 404 (docs/reference/hcp-terraform-api.md §4 names 403 for
  // disabled public curation; the sandbox has no public modules at all).
  if (p.registry !== 'private') throw notFound();
  const m = ctx.store.moduleByName(p.namespace ?? '', p.name ?? '', p.provider ?? '');
  if (!m) throw notFound();
  return m;
}

function showReply(ctx: Ctx, m: RegistryModule) {
  const include = parseInclude(ctx.url, INCLUDES);
  const withNoCode = include.has('no-code-modules');
  return ok({ data: registryModuleResource(ctx.store, m, withNoCode), ...(withNoCode ? { included: included(ctx, [m], include) } : {}) });
}

export const registryRoutes: Route[] = [
  {
    method: 'GET',
    pattern: '/organizations/:org/registry-modules',
    handler: (ctx, p) => {
      requireOrg(ctx, p.org);
      const include = parseInclude(ctx.url, INCLUDES);
      const q = ctx.url.searchParams;
      const list = [...ctx.store.modules.values()].filter(
        (m) =>
          fuzzy(m.name, q.get('q')) &&
          (q.get('filter[registry_name]') === null || q.get('filter[registry_name]') === 'private') &&
          (q.get('filter[provider]') === null || q.get('filter[provider]') === m.provider) &&
          (q.get('filter[organization_name]') === null || q.get('filter[organization_name]') === m.namespace),
      );
      return listReply(
        ctx,
        list,
        (m) => registryModuleResource(ctx.store, m, include.has('no-code-modules')),
        include.size > 0 ? (page) => included(ctx, page, include) : undefined,
      );
    },
  },
  {
    method: 'GET',
    pattern: '/organizations/:org/registry-modules/:registry/:namespace/:name/:provider',
    handler: (ctx, p) => showReply(ctx, privateModule(ctx, p)),
  },
  {
    method: 'GET',
    pattern: '/registry-modules/:id',
    handler: (ctx, p) => {
      const m = ctx.store.modules.get(p.id ?? '');
      if (!m) throw notFound();
      return showReply(ctx, m);
    },
  },
  {
    // 404 until the version is ingested (docs/reference/hcp-terraform-api.md §4; the provider polls this before pinning).
    method: 'GET',
    pattern: '/organizations/:org/registry-modules/:registry/:namespace/:name/:provider/version',
    handler: (ctx, p) => {
      const m = privateModule(ctx, p);
      const v = m.versions.find((x) => x.version === ctx.url.searchParams.get('module_version') && x.status === 'ok');
      if (!v) throw notFound();
      return ok({ data: moduleVersionResource(m, v) });
    },
  },
];
