/**
 * Zod schemas of comments (spec "Comment", docs/conventions.md#object-shapes, docs/operations.md#comments): the record,
 * its queries and bodies.
 */
import { adminOnly, trashedFilter, UserSummarySchema, VotingSchema } from "../../behaviours/content/schema";
import { comments } from "../../db/schema";
import { idFilter, includeQuery, orderQuery, pageQuery, relationships, trimmedText, z } from "../../http/openapi";
import type { OrderRule } from "../../lib/order";

/** The schema's enum, which the entity model checks names exactly the commentable kinds (a tuple, for zod). */
const COMMENTABLE_TYPES = comments.commentable_type.enumValues;

const int = () => z.number().int();

export const COMMENT_INCLUDES = ["user", "voting"] as const;
export type CommentInclude = (typeof COMMENT_INCLUDES)[number];

export const CommentSchema = z
  .object({
    comment_id: int(),
    commentable_id: int(),
    commentable_type: z.enum(COMMENTABLE_TYPES).openapi({ description: "`comment` for a reply" }),
    user_id: int(),
    content: z.string().openapi({ description: "as the author wrote it (trimmed), not HTML-escaped" }),
    reply_count: int(),
    vote_count: int(),
    vote_up_count: int(),
    vote_down_count: int(),
    create_time: int(),
    update_time: int(),
    delete_time: adminOnly(int()),
    relationships: relationships({ user: UserSummarySchema.nullable().optional(), voting: VotingSchema.optional() }),
  })
  .openapi("Comment");

export type Comment = z.infer<typeof CommentSchema>;

export type CommentOrderField = "vote_count" | "create_time" | "delete_time";

/** Every comment list (docs/operations.md#comments-and-replies, docs/operations.md#comments). */
export const COMMENT_ORDER: OrderRule<CommentOrderField> = {
  fields: ["vote_count", "create_time"],
  adminFields: ["delete_time"],
  default: "-create_time",
};

const include = includeQuery(COMMENT_INCLUDES);

export const CommentIncludeQuery = z.object({ include });

export const CommentPageQuery = z.object({
  ...pageQuery,
  include,
  order: orderQuery(COMMENT_ORDER),
});

export const CommentListQuery = CommentPageQuery.extend({
  comment_id: idFilter("only this comment"),
  commentable_id: idFilter("only comments on this target"),
  commentable_type: z.enum(COMMENTABLE_TYPES, { error: `must be one of: ${COMMENTABLE_TYPES.join(", ")}` }).optional(),
  user_id: idFilter("only comments by this user"),
  trashed: trashedFilter,
});

/** docs/content.md#validation: trimmed, 1-1000 characters (code points), stored as written. */
const content = trimmedText(1000);

export const CommentBody = z.object({ content }).openapi("CommentCreate");

export const CommentEditBody = z
  .object({ content: content.optional() })
  .openapi("CommentEdit", { description: "Without `content` nothing changes." });
