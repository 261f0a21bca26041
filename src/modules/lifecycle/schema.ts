/** Zod pieces of the trash and untrash routes, from each kind's own record schema and include names. */
import type { TrashableKind } from "../../domain/entities";
import { includeQuery, z } from "../../http/openapi";
import { recordKinds } from "./records";

/** One id answers the record; a comma list answers an array of the records acted on, without pagination. */
export const oneOrMany = (type: TrashableKind) =>
  z
    .union([recordKinds[type].schema, z.array(recordKinds[type].schema)])
    .openapi({ description: "one id: the record; several: an array" });

export const IncludeQuery = (type: TrashableKind) => z.object({ include: includeQuery(recordKinds[type].includes) });
