import type { Ctx, Reply } from './context.js';
import { notFound } from './errors.js';
import { paginate } from './pagination.js';

/** A paginated list document: `data`, full-URL `links`, `meta.pagination` (docs/reference/hcp-terraform-api.md §8). */
export function listReply<T>(ctx: Ctx, all: T[], render: (item: T) => unknown, included?: (page: T[]) => unknown[]): Reply {
  const page = paginate(all, ctx.url, ctx.settings.defaultPageSize);
  const json: Record<string, unknown> = { data: page.items.map(render), links: page.links, meta: page.meta };
  if (included) json.included = included(page.items);
  return { status: 200, json };
}

/** The simulator holds one organization; any other name is a 404, like one the token cannot see (docs/reference/hcp-terraform-api.md §8). */
export function requireOrg(ctx: Ctx, org: string | undefined): void {
  if (org !== ctx.store.organization) throw notFound();
}

/** Case-insensitive substring test used for `q` and fuzzy `search[name]` (the sandbox's reading of "fuzzy"). */
export const fuzzy = (value: string, q: string | null): boolean => q === null || q === '' || value.toLowerCase().includes(q.toLowerCase());
