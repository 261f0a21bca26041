/**
 * `order` parsing: one field, a leading `-` for descending. A value outside the route's allowed list (or one
 * reserved for administrators, asked by someone else) falls back to the route's default
 * (docs/decisions.md#unknown-fields-includes-and-orders-are-ignored).
 */
export interface Order<F extends string> {
  field: F;
  desc: boolean;
}

export interface OrderRule<F extends string> {
  fields: readonly F[];
  /** Fields only administrators may order by, e.g. `delete_time`. */
  adminFields?: readonly F[];
  default: `${"-" | ""}${F}`;
}

function split<F extends string>(value: string): Order<F> {
  return value.startsWith("-") ? { field: value.slice(1) as F, desc: true } : { field: value as F, desc: false };
}

export function parseOrder<F extends string>(
  value: string | undefined,
  rule: OrderRule<F>,
  isAdmin: boolean,
): Order<F> {
  if (value) {
    const wanted = split<F>(value.trim());
    if (rule.fields.includes(wanted.field) || (isAdmin && rule.adminFields?.includes(wanted.field))) return wanted;
  }
  return split<F>(rule.default);
}
