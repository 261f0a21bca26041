/** Zod schemas of the users routes: the User record (spec "User (full record)"), queries and bodies. */
import { users } from "../../db/schema";
import { ImageUrlsSchema, idFilter, includeQuery, orderQuery, pageQuery, relationships, z } from "../../http/openapi";
import { parseInclude } from "../../lib/include";
import type { OrderRule } from "../../lib/order";
import { MAX_USERNAME_LENGTH } from "../../lib/username";

const restricted = <T extends z.ZodType>(schema: T) =>
  schema.optional().openapi({ description: "restricted: present for the user themself and for administrators" });

/** Private-message fields (docs/messages.md#privacy): administrators do not see them either. */
const ownOnly = <T extends z.ZodType>(schema: T, meaning: string) =>
  schema.optional().openapi({ description: `restricted: present for the user themself only; ${meaning}` });

/** Who may write to the user (docs/messages.md#who-may-write-to-whom): the schema's enum. */
const INBOX_ACCEPT = users.inbox_accept.enumValues;

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
    inbox_unread: ownOnly(z.number().int(), "unread private messages still in the user's inbox"),
    headline: z.string(),
    bio: z.string(),
    blog: z.string(),
    company: z.string(),
    location: z.string(),
    create_time: z.number().int(),
    update_time: restricted(z.number().int()),
    disable_time: restricted(z.number().int().openapi({ description: "0 = enabled" })),
    inbox_accept: ownOnly(
      z.enum(INBOX_ACCEPT),
      "who may write to the user: everyone, the users they follow, or nobody (administrators always may)",
    ),
    inbox_email: ownOnly(z.boolean(), "whether a new message in an unread conversation is mailed to the user"),
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
  search: z.string().trim().max(MAX_USERNAME_LENGTH, `at most ${MAX_USERNAME_LENGTH} characters`).optional().openapi({
    description:
      "usernames beginning with this, case-insensitive (for autocomplete); by username unless `order` is given",
  }),
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

/** The caller's own record also takes their private-message preferences (docs/messages.md#who-may-write-to-whom). */
export const MyProfileBody = z
  .object({
    // The profile's own fields, copied: an `extend` would be documented as allOf a reference, which client
    // generators read less well than one object.
    ...ProfileBody.shape,
    inbox_accept: z
      .enum(INBOX_ACCEPT, { error: `must be one of: ${INBOX_ACCEPT.join(", ")}` })
      .optional()
      .openapi({ description: "who may write to you: everyone, the users you follow, or nobody" }),
    inbox_email: z
      .boolean({ error: "must be true or false" })
      .optional()
      .openapi({ description: "mail me when a message arrives in a conversation I have not read" }),
  })
  .openapi("MyProfile", {
    description:
      "Only the fields sent change; other fields are ignored. The two inbox preferences do not move update_time.",
  });

export type MyProfileChanges = z.infer<typeof MyProfileBody>;
