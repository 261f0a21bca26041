/** Zod schemas of the users routes: the User record (spec "User (full record)"), queries and bodies. */
import { ImageUrlsSchema, idFilter, includeQuery, orderQuery, pageQuery, relationships, z } from "../../http/openapi";
import { parseInclude } from "../../lib/include";
import type { OrderRule } from "../../lib/order";

const restricted = <T extends z.ZodType>(schema: T) =>
  schema.optional().openapi({ description: "restricted: present for the user themself and for administrators" });

export const USER_INCLUDES = ["is_followed", "is_following", "is_me"] as const;
export type UserInclude = (typeof USER_INCLUDES)[number];

/** The includes a list of User records asks for: the users routes' own and the follower and voter lists'. */
export const userIncludesOf = (query: { include?: string }) => parseInclude(query.include, USER_INCLUDES);

export const UserSchema = z
  .object({
    user_id: z.number().int(),
    username: z.string(),
    email: restricted(z.string()),
    avatar: ImageUrlsSchema,
    cover: ImageUrlsSchema,
    create_ip: restricted(z.string()),
    create_location: restricted(z.string()),
    last_login_time: restricted(z.number().int()),
    last_login_ip: restricted(z.string()),
    last_login_location: restricted(z.string()),
    follower_count: z.number().int(),
    followee_count: z.number().int(),
    following_article_count: z.number().int(),
    following_question_count: z.number().int(),
    following_topic_count: z.number().int(),
    article_count: z.number().int(),
    question_count: z.number().int(),
    answer_count: z.number().int(),
    notification_unread: restricted(z.number().int()),
    inbox_unread: restricted(z.number().int()),
    headline: z.string(),
    bio: z.string(),
    blog: z.string(),
    company: z.string(),
    location: z.string(),
    create_time: z.number().int(),
    update_time: restricted(z.number().int()),
    disable_time: restricted(z.number().int().openapi({ description: "0 = enabled" })),
    relationships: relationships({
      is_me: z.boolean().optional().openapi({ description: "the user is the caller" }),
      is_following: z.boolean().optional().openapi({ description: "the caller follows the user (false for oneself)" }),
      is_followed: z.boolean().optional().openapi({ description: "the user follows the caller (false for oneself)" }),
    }),
  })
  .openapi("User");

export type User = z.infer<typeof UserSchema>;

export const FollowerCountSchema = z.object({ follower_count: z.number().int() }).openapi("FollowerCount");

const include = includeQuery(USER_INCLUDES);

export const UserIncludeQuery = z.object({ include });

export const UserPageQuery = z.object({ ...pageQuery, include });

export type UserOrderField = "follower_count" | "create_time" | "disable_time";

/**
 * GET /users: the reference's default is `create_time` ascending (docs/operations.md#users,
 * docs/decisions.md#default-list-orders).
 */
export const USER_ORDER: OrderRule<UserOrderField> = {
  fields: ["follower_count", "create_time"],
  adminFields: ["disable_time"],
  default: "create_time",
};

export const UserListQuery = UserPageQuery.extend({
  order: orderQuery(USER_ORDER),
  user_id: idFilter("only this user"),
  username: z.string().optional().openapi({ description: "exact username, case-insensitive" }),
  email: z
    .string()
    .optional()
    .openapi({ description: "exact e-mail address, case-insensitive; administrators only, ignored for others" }),
  disabled: z
    .string()
    .optional()
    .openapi({ description: "`true`: only disabled users (administrators only; ignored for others)" }),
});

/** Profile text as the user wrote it: no trimming, empty allowed; lengths count characters, not UTF-16 units. */
const profileText = (max: number) =>
  z
    .string({ error: "must be a string" })
    .refine((value) => [...value].length <= max, `at most ${max} characters`)
    .openapi({ maxLength: max })
    .optional();

export const ProfileBody = z
  .object({
    headline: profileText(40),
    bio: profileText(160),
    blog: profileText(255),
    company: profileText(255),
    location: profileText(255),
  })
  .openapi("UserProfile", { description: "Only the fields sent change; other fields are ignored." });

export type ProfileChanges = z.infer<typeof ProfileBody>;
