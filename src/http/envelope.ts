/** The one module that builds success bodies: `{code: 0, data}` or `{code: 0, data, pagination}`. */
import type { Context } from "hono";
import type { Pagination } from "../lib/pagination";

export const ok = <T>(c: Context, data: T) => c.json({ code: 0 as const, data }, 200);

export const page = <T>(c: Context, data: T[], pagination: Pagination) =>
  c.json({ code: 0 as const, data, pagination }, 200);
