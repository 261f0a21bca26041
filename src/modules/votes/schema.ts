/**
 * Zod schemas of the VOTE family (docs/operations.md#shared-families): the vote body, the counts a write answers, the
 * voters query.
 */
import { VOTE_TYPES } from "../../behaviours/votable";
import { z } from "../../http/openapi";
import { UserPageQuery } from "../users/schema";

/** A body without a valid `type` is a 200006, not a 200001 (docs/operations.md#votes): see the routes' hook. */
export const VoteBody = z.object({ type: z.enum(VOTE_TYPES) }).openapi("Vote");

export const VoteCountsSchema = z
  .object({
    vote_count: z.number().int().openapi({ description: "up votes minus down votes, may be negative" }),
    vote_up_count: z.number().int(),
    vote_down_count: z.number().int(),
  })
  .openapi("VoteCounts");

export const VoterPageQuery = UserPageQuery.extend({
  type: z
    .string()
    .optional()
    .openapi({ description: "`up` or `down`: only those voters; any other value lists every voter" }),
});

export type VoterQuery = z.infer<typeof VoterPageQuery>;
