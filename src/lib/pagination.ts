/**
 * page/per_page parsing and the pagination object (docs/conventions.md): page < 1 becomes 1, per_page is
 * clamped to 1..100 (a non-numeric value counts as 0, so 1), defaults 1 and 15.
 */
export interface Pagination {
  page: number;
  per_page: number;
  previous: number | null;
  next: number | null;
  total: number;
  pages: number;
}

export interface PageRequest {
  page: number;
  per_page: number;
  offset: number;
}

export const MAX_PER_PAGE = 100;
export const DEFAULT_PER_PAGE = 15;
/**
 * A huge `page` would make the OFFSET a non-integer number, which SQLite refuses (a 500); this cap keeps the
 * offset a safe integer while being far past any real last page.
 */
export const MAX_PAGE = 2_147_483_647;

function toInt(value: string | undefined, fallback: number): number {
  if (value === undefined || value === "") return fallback;
  const n = Number.parseInt(value, 10);
  return Number.isFinite(n) ? n : 0;
}

export function parsePage(query: { page?: string; per_page?: string }): PageRequest {
  const page = Math.min(MAX_PAGE, Math.max(1, toInt(query.page, 1)));
  const per_page = Math.min(MAX_PER_PAGE, Math.max(1, toInt(query.per_page, DEFAULT_PER_PAGE)));
  return { page, per_page, offset: (page - 1) * per_page };
}

export function paginate(req: PageRequest, total: number): Pagination {
  const pages = Math.ceil(total / req.per_page);
  return {
    page: req.page,
    per_page: req.per_page,
    previous: req.page > 1 ? req.page - 1 : null,
    next: pages > req.page ? req.page + 1 : null,
    total,
    pages,
  };
}
