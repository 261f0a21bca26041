/** How comment rows become Comment records (spec "Comment"), with the includes `user` and `voting`. */
import type { ContentRecords } from "../../behaviours/content/page";
import { type CommentRow, presentRecord } from "../../behaviours/content/present";
import { authorRelation, includedRelations, votingRelation } from "../../behaviours/content/relations";
import { comments } from "../../db/schema";
import { entities } from "../../domain/entities";
import { COMMENT_INCLUDES, COMMENT_ORDER, type Comment, type CommentInclude, CommentSchema } from "./schema";

export const commentRecords: ContentRecords<CommentRow, Comment, CommentInclude> = {
  kind: entities.comment,
  includes: COMMENT_INCLUDES,
  order: COMMENT_ORDER,
  schema: CommentSchema,
  relation: (_db, view, include) =>
    includedRelations(include, () => [
      include.has("user") && authorRelation(view, comments.user_id),
      include.has("voting") && votingRelation(view, "comment", comments.comment_id),
    ]),
  present: (view) => (row, relationships) => presentRecord(row, view, relationships) as Comment,
};
