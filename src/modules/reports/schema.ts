/**
 * Zod schemas of the reports routes (spec "Report", operation 7; docs/conventions.md#object-shapes,
 * docs/operations.md#reports): the Report record, the report group of the administrators' list, the reason body and the
 * queries.
 */
import { UserSummarySchema } from "../../behaviours/content/schema";
import { includeQuery, pageQuery, relationships, z } from "../../http/openapi";
import { MessageSummarySchema } from "../inbox/schema";
import { QuestionSummarySchema } from "../questions/schema";
import { REPORTABLE_TYPES } from "./targets";

const int = () => z.number().int();
const time = () => int();

/** Includes of a group: the target's summary, under its type's key. */
export const GROUP_INCLUDES = REPORTABLE_TYPES;
export type GroupInclude = (typeof GROUP_INCLUDES)[number];

/** Includes of a Report: the reporter, and the target's summary under its type's key. */
export const REPORT_INCLUDES = ["reporter", ...REPORTABLE_TYPES] as const;
export type ReportInclude = (typeof REPORT_INCLUDES)[number];

// Left unnamed: the spec's shared summaries are not registered components yet, and a name chosen here could
// clash with another module's.
const ArticleSummarySchema = z.object({
  article_id: int(),
  title: z.string(),
  create_time: time(),
  update_time: time(),
});
const AnswerSummarySchema = z.object({
  answer_id: int(),
  question_id: int(),
  content_summary: z.string().openapi({ description: "the first 80 characters of the tag-stripped answer" }),
  create_time: time(),
  update_time: time(),
});
const CommentSummarySchema = z.object({
  comment_id: int(),
  content_summary: z.string().openapi({ description: "the first 80 characters of the comment" }),
  create_time: time(),
  update_time: time(),
});

const summary = <T extends z.ZodType>(schema: T, type: string) =>
  schema
    .nullable()
    .optional()
    .openapi({ description: `when asked and the target is a ${type}; null when it is missing or trashed` });

const targetSummaries = {
  question: summary(QuestionSummarySchema, "question"),
  answer: summary(AnswerSummarySchema, "answer"),
  article: summary(ArticleSummarySchema, "article"),
  comment: summary(CommentSummarySchema, "comment"),
  user: summary(UserSummarySchema, "user"),
  message: summary(MessageSummarySchema, "message").openapi({
    description: "when asked and the target is a private message: shown to administrators because it was reported",
  }),
};

const reportableType = z.enum(REPORTABLE_TYPES);

export const ReportSchema = z
  .object({
    report_id: int(),
    reportable_id: int().openapi({ description: "id of the reported target" }),
    reportable_type: reportableType,
    user_id: int().openapi({ description: "the reporter" }),
    reason: z.string().openapi({ description: "as the reporter wrote it, not HTML-escaped" }),
    create_time: time(),
    relationships: relationships({ reporter: UserSummarySchema.nullable().optional(), ...targetSummaries }),
  })
  .openapi("Report");

export type Report = z.infer<typeof ReportSchema>;

export const ReportGroupSchema = z
  .object({
    reportable_id: int(),
    reportable_type: reportableType,
    reporter_count: int().openapi({ description: "how many users reported the target" }),
    relationships: relationships(targetSummaries).openapi({
      description: "present when `include` asks for any; only the key of the row's own type appears",
    }),
  })
  .openapi("ReportGroup");

export type ReportGroup = z.infer<typeof ReportGroupSchema>;

/** The path segment `{reportable_type}:{reportable_id}` as one parameter: Hono cannot split a segment at a colon. */
export const TargetParam = z.object({ target: z.string().openapi({ param: { name: "target", in: "path" } }) });

/**
 * The spec's path template, as the document shows it to client generators: the router serves the same URLs under
 * `/reports/{target}` (routes.ts).
 */
export const SPEC_TARGET_PATH = "/reports/{reportable_type}:{reportable_id}";

/**
 * The template's two parameters. `reportable_id` is one id, or where a list is allowed (DELETE) the rest of the
 * segment, e.g. `1,answer:2` in `question:1,answer:2`.
 */
export const SpecTargetParams = (list: boolean) =>
  z.object({
    reportable_type: reportableType.openapi({
      param: { name: "reportable_type", in: "path" },
      description: "question, answer, article, comment, user or message (else 207002)",
      example: "question",
    }),
    reportable_id: z.string().openapi({
      param: { name: "reportable_id", in: "path" },
      ...(list
        ? {
            type: "string",
            description:
              "a positive integer; several targets are a comma list of at most 100 `type:id` in the segment " +
              "(`question:1,answer:2`, more: 200001), so reportable_id is then `1,answer:2`",
            example: "1",
          }
        : {
            type: "integer",
            description: "a positive integer (else 200001 on `target`, the whole segment)",
            example: 1,
          }),
    }),
  });

/**
 * `reason`: 2 to 200 characters counted in code points, as written (no trimming). Validated by the service after
 * the target (docs/operations.md#reports checks type, target, reason, then duplicates), so no validator runs before it.
 */
export const ReportBody = z
  .object({
    reason: z
      .string({ error: (issue) => (issue.input === undefined ? "required" : "must be a string") })
      .refine((value) => {
        const length = [...value].length;
        return length >= 2 && length <= 200;
      }, "must be 2 to 200 characters")
      .openapi({ minLength: 2, maxLength: 200 }),
  })
  .openapi({ description: "Reporting oneself or one's own content is allowed; once per user and target." });

export const ReportIncludeQuery = z.object({ include: includeQuery(REPORT_INCLUDES) });

export const ReportPageQuery = z.object({ ...pageQuery, include: includeQuery(REPORT_INCLUDES) });

export const ReportGroupQuery = z.object({
  ...pageQuery,
  include: includeQuery(GROUP_INCLUDES),
  reportable_type: z
    .enum(REPORTABLE_TYPES, { error: `must be one of: ${REPORTABLE_TYPES.join(", ")}` })
    .optional()
    .openapi({ description: "only targets of this type" }),
});

export type ReportGroupQueryInput = z.infer<typeof ReportGroupQuery>;
export type ReportPageQueryInput = z.infer<typeof ReportPageQuery>;
