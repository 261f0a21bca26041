/**
 * The User record on the wire (spec "User (full record)"; the user summary is behaviours/content/present.ts's).
 * Restricted fields are shown to administrators and to the user themself
 * (docs/decisions.md#users-see-their-own-restricted-fields), the private-message fields to the user themself only
 * (docs/messages.md#privacy); the password hash and role never leave the server.
 */
import { avatarUrls, copyFields, type UserRow } from "../../behaviours/content/present";
import type { View } from "../../http/view";
import { type ImageUrls, imageUrls } from "../../lib/image-urls";
import type { User } from "./schema";

const RESTRICTED = new Set<string>([
  "email",
  "create_ip",
  "create_location",
  "last_login_time",
  "last_login_ip",
  "last_login_location",
  "notification_unread",
  "update_time",
  "disable_time",
]);

/** A member's private messages are theirs alone: not even administrators see these of someone else. */
const OWN_ONLY = new Set<string>(["inbox_unread", "inbox_accept", "inbox_email"]);

/** Never on the wire; avatar and cover are replaced by their URL sets, after the other fields. */
const REPLACED = new Set(["role", "avatar", "cover"]);

/** The user's cover: the uploaded file, or the site's default cover. */
export const coverUrls = (row: Pick<UserRow, "cover">, view: View): ImageUrls =>
  imageUrls(row.cover, "user_cover.jpg", view);

export type UserRelationships = NonNullable<User["relationships"]>;

export function presentUser(row: UserRow, view: View, relationships?: UserRelationships): User {
  const self = view.viewer?.user_id === row.user_id;
  const seesPrivate = self || view.isAdmin;
  const record = copyFields(
    row,
    (key) => !REPLACED.has(key) && (seesPrivate || !RESTRICTED.has(key)) && (self || !OWN_ONLY.has(key)),
  );
  record.avatar = avatarUrls(row, view);
  record.cover = coverUrls(row, view);
  if (relationships) record.relationships = relationships;
  return record as User;
}
