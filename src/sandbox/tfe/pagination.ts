/**
 * Page-based pagination as HCP Terraform answers it (docs/reference/hcp-terraform-api.md §8, §4): `page[number]` (default 1),
 * `page[size]` (default 20 as the real service, or the simulator's `defaultPageSize`; at most 100, larger values
 * are clamped to 100), `links`
 * with full URLs whose brackets are percent-encoded, and `meta.pagination`. A page past the end answers 200
 * with empty `data` and echoes `current-page` (docs/reference/hcp-terraform-api.md §4, go-tfe registry module integration test).
 */
export const MAX_PAGE_SIZE = 100;
/** The real default page size (docs/reference/hcp-terraform-api.md §8: `page[size]` default 20). */
export const DEFAULT_PAGE_SIZE = 20;

export interface PageMeta {
  'current-page': number;
  'page-size': number;
  'prev-page': number | null;
  'next-page': number | null;
  'total-pages': number;
  'total-count': number;
}

export interface Page<T> {
  items: T[];
  links: { self: string; first: string; prev: string | null; next: string | null; last: string };
  meta: { pagination: PageMeta };
}

/** A positive integer, else the fallback: the sandbox treats junk like an omitted parameter (not documented). */
function positive(raw: string | null, fallback: number): number {
  if (raw === null || !/^\d+$/.test(raw)) return fallback;
  const n = Number(raw);
  return n >= 1 ? n : fallback;
}

export function paginate<T>(all: T[], url: URL, defaultSize: number): Page<T> {
  const size = Math.min(MAX_PAGE_SIZE, positive(url.searchParams.get('page[size]'), defaultSize));
  const number = positive(url.searchParams.get('page[number]'), 1);
  const totalPages = Math.max(1, Math.ceil(all.length / size));
  const items = all.slice((number - 1) * size, number * size);
  const link = (n: number): string => {
    const q = new URLSearchParams(url.searchParams);
    q.set('page[number]', String(n));
    q.set('page[size]', String(size));
    // URLSearchParams encodes `[` and `]` as %5B and %5D, as the real links do.
    return `${url.origin}${url.pathname}?${q.toString()}`;
  };
  const prev = number > 1 ? Math.min(number - 1, totalPages) : null;
  const next = number < totalPages ? number + 1 : null;
  return {
    items,
    links: {
      self: link(number),
      first: link(1),
      prev: prev === null ? null : link(prev),
      next: next === null ? null : link(next),
      last: link(totalPages),
    },
    meta: {
      pagination: {
        'current-page': number,
        'page-size': size,
        'prev-page': prev,
        'next-page': next,
        'total-pages': totalPages,
        'total-count': all.length,
      },
    },
  };
}
