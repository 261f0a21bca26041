/** Zod schemas of the edit history routes (docs/revisions.md): a revision, its list's query, the restore path. */
import { UserSummarySchema } from "../../behaviours/content/schema";
import { includeQuery, pageQuery, pathId, relationships, z } from "../../http/openapi";

export const REVISION_INCLUDES = ["user"] as const;
export type RevisionInclude = (typeof REVISION_INCLUDES)[number];

const change = <T extends z.ZodType>(value: T, what: string) =>
  z
    .object({ before: value, after: value })
    .optional()
    .openapi({ description: `present when the edit changed ${what}: its value before and after the edit` });

export const RevisionSchema = z
  .object({
    revision: z
      .number()
      .int()
      .openapi({ description: "the revision the edit made: 2 for the first edit (1 is the item as created)" }),
    user_id: z.number().int().openapi({ description: "the editor: the author or an administrator" }),
    create_time: z.number().int().openapi({ description: "when the edit was made" }),
    changes: z
      .object({
        title: change(z.string(), "the title"),
        content_markdown: change(z.string(), "the content (as markdown)"),
        topic_ids: change(z.array(z.number().int()), "the live topics (ids, ascending)"),
      })
      .openapi({ description: "the fields the edit changed, and only those" }),
    relationships: relationships({ user: UserSummarySchema.nullable().optional() }),
  })
  .openapi("Revision");

export type Revision = z.infer<typeof RevisionSchema>;

export const RevisionPageQuery = z.object({ ...pageQuery, include: includeQuery(REVISION_INCLUDES) });

export const RevisionParam = pathId("revision");
